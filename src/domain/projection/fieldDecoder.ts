import { Either } from "effect"
import type { DecodeError } from "../../ntbundle/errors.ts"
import { encodeBase58Bytes32 } from "../../ntbundle/base58.ts"
import { DEFINED_TYPE_FIELDS, type FieldDescriptor, type FieldType } from "../../ntbundle/generated/types.ts"
import { readI128, readU128 } from "./wideInts.ts"

// The projection decodes a Bundle on every update of it: @solana/kit's struct decoder copies the buffer for every numeric field it reads, which made
// decoding the largest cost of applying an update. This reads the same layouts (the generated field
// descriptors) straight from the bytes through one DataView.
//
// It produces what kit's decoder produces for well-formed data only: on anything unusual (data that
// ends early, a Borsh bool tag other than 0 or 1, a wrong discriminator) it hands the bytes to kit's
// decoder, so errors, and their messages, stay kit's.

interface Cursor {
  readonly data: Uint8Array
  readonly view: DataView
  offset: number
}

type Read = (cursor: Cursor) => unknown

/** Thrown inside a read to give the bytes to the full decoder instead. */
class Unusual extends Error {}

const take = (cursor: Cursor, size: number): number => {
  const at = cursor.offset
  if (at + size > cursor.data.length) throw new Unusual()
  cursor.offset = at + size
  return at
}


const primitive = (type: string): Read => {
  switch (type) {
    case "bool":
      return (c) => {
        const tag = c.data[take(c, 1)]!
        if (tag > 1) throw new Unusual()
        return tag === 1
      }
    case "u8":
      return (c) => c.view.getUint8(take(c, 1))
    case "i8":
      return (c) => c.view.getInt8(take(c, 1))
    case "u16":
      return (c) => c.view.getUint16(take(c, 2), true)
    case "i16":
      return (c) => c.view.getInt16(take(c, 2), true)
    case "u32":
      return (c) => c.view.getUint32(take(c, 4), true)
    case "i32":
      return (c) => c.view.getInt32(take(c, 4), true)
    case "f32":
      return (c) => c.view.getFloat32(take(c, 4), true)
    case "f64":
      return (c) => c.view.getFloat64(take(c, 8), true)
    case "u64":
      return (c) => c.view.getBigUint64(take(c, 8), true)
    case "i64":
      return (c) => c.view.getBigInt64(take(c, 8), true)
    case "u128":
      return (c) => readU128(c.view, take(c, 16))
    case "i128":
      return (c) => readI128(c.view, take(c, 16))
    case "pubkey":
      return (c) => {
        const at = take(c, 32)
        return encodeBase58Bytes32(c.data.subarray(at, at + 32))
      }
    default:
      throw new Error(`no reader for field type ${type}`)
  }
}

const compileType = (type: FieldType): Read => {
  if (typeof type === "string") return primitive(type)
  if ("bytes" in type) {
    const size = type.bytes
    return (c) => {
      const at = take(c, size)
      return c.data.slice(at, at + size)
    }
  }
  if ("array" in type) {
    const item = compileType(type.array)
    const length = type.length
    return (c) => {
      const items = new Array<unknown>(length)
      for (let i = 0; i < length; i++) items[i] = item(c)
      return items
    }
  }
  if ("vec" in type) {
    const item = compileType(type.vec)
    return (c) => {
      const length = c.view.getUint32(take(c, 4), true)
      // Each item takes at least a byte: a length beyond the data is not read item by item.
      if (length > c.data.length - c.offset) throw new Unusual()
      const items = new Array<unknown>(length)
      for (let i = 0; i < length; i++) items[i] = item(c)
      return items
    }
  }
  if ("option" in type) {
    const value = compileType(type.option)
    return (c) => {
      const tag = c.data[take(c, 1)]!
      if (tag > 1) throw new Unusual()
      return tag === 1 ? value(c) : null
    }
  }
  return compileStruct(DEFINED_TYPE_FIELDS[type.defined])
}

const compileStruct = (fields: ReadonlyArray<FieldDescriptor>): Read => {
  const names = fields.map((field) => field.name)
  const reads = fields.map((field) => compileType(field.type))
  return (c) => {
    const out: Record<string, unknown> = {}
    for (let i = 0; i < reads.length; i++) out[names[i]!] = reads[i]!(c)
    return out
  }
}

/**
 * An account decoder equal to `full` (kit's, for the layout whose `fields` and `discriminator` are
 * given) that reads well-formed data itself and leaves everything else to `full`.
 */
export const fieldDecoder = <A>(
  discriminator: Uint8Array,
  fields: ReadonlyArray<FieldDescriptor>,
  full: (bytes: Uint8Array) => Either.Either<A, DecodeError>
): ((bytes: Uint8Array) => Either.Either<A, DecodeError>) => {
  const read = compileStruct(fields)
  const head = discriminator.length
  return (bytes) => {
    if (bytes.length < head) return full(bytes)
    for (let i = 0; i < head; i++) if (bytes[i] !== discriminator[i]) return full(bytes)
    // A plain array, as kit decodes from: byte fields of a Buffer would alias it.
    const data = Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes)
    try {
      return Either.right(read({ data, view: new DataView(data.buffer, data.byteOffset, data.byteLength), offset: head }) as A)
    } catch (error) {
      if (error instanceof Unusual || error instanceof RangeError) return full(bytes)
      throw error
    }
  }
}

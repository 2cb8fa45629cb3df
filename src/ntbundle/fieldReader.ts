import { addressTextOf } from "./addressBytes.ts"
import type { FieldDescriptor, FieldType } from "./generated/types.ts"
import { DEFINED_TYPE_FIELDS } from "./generated/types.ts"

// Borsh decoding straight from a DataView over the bytes, driven by the generated field
// descriptors: the same values as the kit codecs (tested against them), without kit's copy of every
// number into a fresh ArrayBuffer, which dominated decoding thousands of events a second. It only
// decodes well-formed data: on anything a codec would reject (data ending early, a bool or Option
// tag above 1) it gives up, and the caller runs the kit codec for its exact error.

/** Where a reader is: the bytes (a plain Uint8Array), a view over them, the offset; `failed` once it gave up. */
export interface Cursor {
  bytes: Uint8Array
  view: DataView
  at: number
  failed: boolean
}

/** Reads one value at the cursor and moves it past; on failure sets `failed` (the value is then meaningless). */
type Read = (cursor: Cursor) => unknown

const fits = (cursor: Cursor, size: number): boolean => {
  if (cursor.at + size <= cursor.bytes.length) return true
  cursor.failed = true
  return false
}

const fixed = (size: number, get: (view: DataView, at: number) => unknown): Read => (cursor) => {
  if (!fits(cursor, size)) return null
  const value = get(cursor.view, cursor.at)
  cursor.at += size
  return value
}

const U64_SHIFT = 64n

const PRIMITIVES: { readonly [K in string]?: Read } = {
  u8: fixed(1, (view, at) => view.getUint8(at)),
  i8: fixed(1, (view, at) => view.getInt8(at)),
  u16: fixed(2, (view, at) => view.getUint16(at, true)),
  i16: fixed(2, (view, at) => view.getInt16(at, true)),
  u32: fixed(4, (view, at) => view.getUint32(at, true)),
  i32: fixed(4, (view, at) => view.getInt32(at, true)),
  f32: fixed(4, (view, at) => view.getFloat32(at, true)),
  f64: fixed(8, (view, at) => view.getFloat64(at, true)),
  u64: fixed(8, (view, at) => view.getBigUint64(at, true)),
  i64: fixed(8, (view, at) => view.getBigInt64(at, true)),
  u128: fixed(16, (view, at) => (view.getBigUint64(at + 8, true) << U64_SHIFT) + view.getBigUint64(at, true)),
  i128: fixed(16, (view, at) => (view.getBigInt64(at + 8, true) << U64_SHIFT) + view.getBigUint64(at, true)),
  pubkey: (cursor) => {
    if (!fits(cursor, 32)) return null
    const text = addressTextOf(cursor.bytes.subarray(cursor.at, cursor.at + 32))
    cursor.at += 32
    return text
  },
  bool: (cursor) => {
    const tag = readTag(cursor)
    return tag === 1
  }
}

/** A Borsh bool or Option tag: 0 or 1, anything else fails (as `borshTagCodec` does). */
const readTag = (cursor: Cursor): number => {
  if (!fits(cursor, 1)) return 0
  const tag = cursor.bytes[cursor.at]!
  cursor.at += 1
  if (tag > 1) cursor.failed = true
  return tag
}

const readerOf = (type: FieldType): Read => {
  if (typeof type === "string") {
    const read = PRIMITIVES[type]
    if (read === undefined) throw new Error(`no reader for field type ${type}`)
    return read
  }
  if ("bytes" in type) {
    const size = type.bytes
    return (cursor) => {
      if (!fits(cursor, size)) return null
      const value = cursor.bytes.slice(cursor.at, cursor.at + size)
      cursor.at += size
      return value
    }
  }
  if ("option" in type) {
    const item = readerOf(type.option)
    return (cursor) => (readTag(cursor) === 1 && !cursor.failed ? item(cursor) : null)
  }
  if ("vec" in type) {
    const item = readerOf(type.vec)
    const length = PRIMITIVES["u32"]!
    return (cursor) => {
      const count = length(cursor) as number
      return cursor.failed ? null : readItems(cursor, item, count)
    }
  }
  if ("array" in type) {
    const item = readerOf(type.array)
    const count = type.length
    return (cursor) => readItems(cursor, item, count)
  }
  return structReader(DEFINED_TYPE_FIELDS[type.defined])
}

const readItems = (cursor: Cursor, item: Read, count: number): Array<unknown> => {
  const items: Array<unknown> = []
  for (let i = 0; i < count && !cursor.failed; i++) items.push(item(cursor))
  return items
}

/** A reader of a struct laid out as `fields`: an object with their names as keys, in layout order. */
export const structReader = (fields: ReadonlyArray<FieldDescriptor>): Read => {
  const names = fields.map((field) => field.name)
  const reads = fields.map((field) => readerOf(field.type))
  return (cursor) => {
    const value: Record<string, unknown> = {}
    for (let i = 0; i < reads.length; i++) {
      value[names[i]!] = reads[i]!(cursor)
      if (cursor.failed) return null
    }
    return value
  }
}

/**
 * Reads `read`'s value from `bytes` (a plain Uint8Array) at `offset`; undefined when the data is
 * not well formed, for the caller to decode it with the kit codec and report why.
 */
export const readAt = (read: Read, bytes: Uint8Array, offset: number): unknown => {
  const cursor: Cursor = { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), at: offset, failed: false }
  const value = read(cursor)
  return cursor.failed ? undefined : value
}

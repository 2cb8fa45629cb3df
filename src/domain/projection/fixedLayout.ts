import type { FieldDescriptor, FieldType } from "../../ntbundle/generated/types.ts"

const PRIMITIVE_SIZES: Readonly<Record<string, number>> = {
  bool: 1,
  u8: 1,
  i8: 1,
  u16: 2,
  i16: 2,
  u32: 4,
  i32: 4,
  f32: 4,
  u64: 8,
  i64: 8,
  f64: 8,
  u128: 16,
  i128: 16,
  pubkey: 32
}

/** The encoded size of a field type, or undefined when it varies (vectors, options, structs). */
const fixedSize = (type: FieldType): number | undefined => {
  if (typeof type === "string") return PRIMITIVE_SIZES[type]
  if ("bytes" in type) return type.bytes
  if ("array" in type) {
    const item = fixedSize(type.array)
    return item === undefined ? undefined : item * type.length
  }
  return undefined
}

/**
 * Where each field of an account layout starts in the account's data (after its 8-byte
 * discriminator), for the fields before the first one whose size varies: what reading a field in
 * place needs, taken from the generated descriptors rather than counted by hand.
 */
export const fieldOffsets = (fields: ReadonlyArray<FieldDescriptor>): ReadonlyMap<string, number> => {
  const offsets = new Map<string, number>()
  let offset = 8
  for (const field of fields) {
    offsets.set(field.name, offset)
    const size = fixedSize(field.type)
    if (size === undefined) break
    offset += size
  }
  return offsets
}

/** The offset of a field `fieldOffsets` placed; throws at load time for a name it does not know. */
export const offsetOf = (offsets: ReadonlyMap<string, number>, name: string): number => {
  const offset = offsets.get(name)
  if (offset === undefined) throw new Error(`no fixed offset for field ${name}`)
  return offset
}

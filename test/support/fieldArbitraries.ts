import { getAddressDecoder } from "@solana/kit"
import { FastCheck } from "effect"
import { DEFINED_TYPE_FIELDS, type FieldDescriptor, type FieldType } from "../../src/ntbundle/generated/types.ts"

// Random values for a field type, built from the generated field descriptors.
const addressDecoder = getAddressDecoder()
export const BIGINT_RANGES: Partial<Record<string, readonly [bigint, bigint]>> = {
  u64: [0n, 2n ** 64n - 1n],
  i64: [-(2n ** 63n), 2n ** 63n - 1n],
  u128: [0n, 2n ** 128n - 1n],
  i128: [-(2n ** 127n), 2n ** 127n - 1n]
}
const INT_RANGES: Partial<Record<string, readonly [number, number]>> = {
  u8: [0, 255],
  i8: [-128, 127],
  u16: [0, 65_535],
  i16: [-32_768, 32_767],
  u32: [0, 4_294_967_295],
  i32: [-2_147_483_648, 2_147_483_647]
}
export const arbitraryOf = (type: FieldType): FastCheck.Arbitrary<unknown> => {
  if (typeof type === "string") {
    const bigintRange = BIGINT_RANGES[type]
    if (bigintRange !== undefined) return FastCheck.bigInt(...bigintRange)
    const intRange = INT_RANGES[type]
    if (intRange !== undefined) return FastCheck.integer({ min: intRange[0], max: intRange[1] })
    if (type === "bool") return FastCheck.boolean()
    if (type === "f32") return FastCheck.float()
    if (type === "f64") return FastCheck.double()
    return FastCheck.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => addressDecoder.decode(bytes))
  }
  if ("bytes" in type) return FastCheck.uint8Array({ minLength: type.bytes, maxLength: type.bytes })
  if ("array" in type) return FastCheck.array(arbitraryOf(type.array), { minLength: type.length, maxLength: type.length })
  if ("vec" in type) return FastCheck.array(arbitraryOf(type.vec), { maxLength: 6 })
  if ("option" in type) return FastCheck.option(arbitraryOf(type.option), { nil: null })
  return structArbitrary(DEFINED_TYPE_FIELDS[type.defined])
}
export const structArbitrary = (fields: ReadonlyArray<FieldDescriptor>): FastCheck.Arbitrary<Record<string, unknown>> =>
  FastCheck.record(Object.fromEntries(fields.map((field) => [field.name, arbitraryOf(field.type)])))

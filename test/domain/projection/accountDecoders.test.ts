import { type Address, getAddressDecoder } from "@solana/kit"
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  decodeBundleFast,
  decodeBundleTempDataFast,
  decodeOracleDataFast,
  decodeReferrerAccountFast,
  decodeUserBundleAccountFast
} from "../../../src/domain/projection/accountDecoders.ts"
import {
  decodeBundle,
  decodeBundleTempData,
  decodeOracleData,
  decodeReferrerAccount,
  decodeUserBundleAccount,
  encodeAccount
} from "../../../src/ntbundle/accounts.ts"
import {
  BUNDLE_FIELDS,
  BUNDLE_TEMP_DATA_FIELDS,
  ORACLE_DATA_FIELDS,
  REFERRER_ACCOUNT_FIELDS,
  USER_BUNDLE_ACCOUNT_FIELDS
} from "../../../src/ntbundle/generated/accounts.ts"
import { DEFINED_TYPE_FIELDS, type FieldDescriptor, type FieldType } from "../../../src/ntbundle/generated/types.ts"

const randomAddress = (): Address => getAddressDecoder().decode(randomBytes(32))
const randomBits = (bits: number): bigint => BigInt(`0x${randomBytes(bits / 8).toString("hex")}`)
const pick = <A>(values: ReadonlyArray<A>): A => values[Math.floor(Math.random() * values.length)]!

/** A random value of the field type, edge values included (zero, all ones, extremes of signed types). */
const randomValue = (type: FieldType): unknown => {
  if (typeof type === "string") {
    switch (type) {
      case "bool": return Math.random() < 0.5
      case "u8": return pick([0, 255, Math.floor(Math.random() * 256)])
      case "u32": return pick([0, 2 ** 32 - 1, Math.floor(Math.random() * 2 ** 32)])
      case "f32": return pick([0, -1.5, Math.fround(Math.random() * 1e6), Infinity])
      case "u64": return pick([0n, (1n << 64n) - 1n, randomBits(64)])
      case "i64": return pick([0n, -(1n << 63n), (1n << 63n) - 1n, randomBits(64) - (1n << 63n)])
      case "u128": return pick([0n, (1n << 128n) - 1n, randomBits(128)])
      case "i128": return pick([0n, -1n, -(1n << 127n), (1n << 127n) - 1n, randomBits(128) - (1n << 127n)])
      case "pubkey": return Math.random() < 0.2 ? "11111111111111111111111111111111" : randomAddress()
      default: throw new Error(`no random ${type}`)
    }
  }
  if ("bytes" in type) return new Uint8Array(randomBytes(type.bytes))
  if ("array" in type) return Array.from({ length: type.length }, () => randomValue(type.array))
  if ("vec" in type) return Array.from({ length: Math.floor(Math.random() * 5) }, () => randomValue(type.vec))
  if ("option" in type) return Math.random() < 0.5 ? null : randomValue(type.option)
  return randomStruct(DEFINED_TYPE_FIELDS[type.defined])
}

const randomStruct = (fields: ReadonlyArray<FieldDescriptor>): Record<string, unknown> =>
  Object.fromEntries(fields.map((field) => [field.name, randomValue(field.type)]))

const cases = [
  { type: "Bundle" as const, fields: BUNDLE_FIELDS, fast: decodeBundleFast, full: decodeBundle },
  { type: "UserBundleAccount" as const, fields: USER_BUNDLE_ACCOUNT_FIELDS, fast: decodeUserBundleAccountFast, full: decodeUserBundleAccount },
  { type: "BundleTempData" as const, fields: BUNDLE_TEMP_DATA_FIELDS, fast: decodeBundleTempDataFast, full: decodeBundleTempData },
  { type: "OracleData" as const, fields: ORACLE_DATA_FIELDS, fast: decodeOracleDataFast, full: decodeOracleData },
  { type: "ReferrerAccount" as const, fields: REFERRER_ACCOUNT_FIELDS, fast: decodeReferrerAccountFast, full: decodeReferrerAccount }
]

describe("in-place account decoders", () => {
  for (const { type, fields, fast, full } of cases) {
    it(`${type}: equal to the full decoder on random accounts, and on truncated, padded, corrupted and foreign data`, () => {
      for (let i = 0; i < 300; i++) {
        const data = encodeAccount({ type, data: randomStruct(fields) } as never)
        expect(fast(data)).toEqual(full(data))
        // As a Buffer (notifications arrive as Buffers): byte fields must come out as plain arrays.
        expect(fast(Buffer.from(data))).toEqual(full(Buffer.from(data)))
        const padded = new Uint8Array(data.length + 40)
        padded.set(data)
        expect(fast(padded)).toEqual(full(padded))
        const cut = data.subarray(0, Math.floor(Math.random() * data.length))
        expect(fast(cut)).toEqual(full(cut))
        const corrupted = data.slice()
        for (let k = 0; k < 4; k++) corrupted[8 + Math.floor(Math.random() * (data.length - 8))] = Math.floor(Math.random() * 256)
        expect(fast(corrupted)).toEqual(full(corrupted))
        const noise = new Uint8Array(randomBytes(data.length))
        noise.set(data.subarray(0, 8))
        expect(fast(noise)).toEqual(full(noise))
        expect(fast(noise.subarray(8))).toEqual(full(noise.subarray(8)))
      }
    })
  }
})

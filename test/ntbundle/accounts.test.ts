import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import { createHash } from "node:crypto"
import golden from "../fixtures/ntbundle-golden.json" with { type: "json" }
import {
  ACCOUNT_DISCRIMINATORS,
  type AccountType,
  BUNDLE_TEMP_DATA_SIZE,
  bundleSize,
  decodeAccount,
  decodeBundle,
  decodeBundleTempData,
  decodeOracleData,
  decodeReferrerAccount,
  decodeUserBundleAccount,
  encodeAccount,
  encodeBundle,
  encodeUserBundleAccount,
  type NtAccount,
  ORACLE_DATA_SIZE,
  REFERRER_ACCOUNT_SIZE,
  USER_BUNDLE_ACCOUNT_SIZE
} from "../../src/ntbundle/accounts.ts"
import { fromHex, toHex } from "../../src/ntbundle/bytes.ts"
import type { DecodeError } from "../../src/ntbundle/errors.ts"
import { ACCOUNT_LAYOUTS } from "../../src/ntbundle/generated/accounts.ts"
import { DEFINED_TYPE_FIELDS, type FieldDescriptor, type FieldType } from "../../src/ntbundle/generated/types.ts"
import { arbitraryOf, BIGINT_RANGES, structArbitrary } from "../support/fieldArbitraries.ts"
import { toJson } from "../../src/ntbundle/json.ts"

// The fixture's JSON form (bigints as strings, bytes as hex) back to typed values, by descriptor.
const typedFromJson = (type: FieldType, json: unknown): unknown => {
  if (typeof type === "string") return BIGINT_RANGES[type] !== undefined ? BigInt(String(json)) : json
  if ("bytes" in type) return fromHex(String(json))
  if ("array" in type) return (json as Array<unknown>).map((item) => typedFromJson(type.array, item))
  if ("vec" in type) return (json as Array<unknown>).map((item) => typedFromJson(type.vec, item))
  if ("option" in type) return json === null ? null : typedFromJson(type.option, json)
  return structFromJson(DEFINED_TYPE_FIELDS[type.defined], json)
}
const structFromJson = (fields: ReadonlyArray<FieldDescriptor>, json: unknown): Record<string, unknown> =>
  Object.fromEntries(fields.map((f) => [f.name, typedFromJson(f.type, (json as Record<string, unknown>)[f.name])]))

const rightOf = <A>(result: Either.Either<A, DecodeError>): A => {
  if (Either.isLeft(result)) throw new Error(`expected a decoded value, got ${result.left.reason}: ${result.left.message}`)
  return result.right
}
const leftOf = <A>(result: Either.Either<A, DecodeError>): DecodeError => {
  if (Either.isRight(result)) throw new Error("expected a DecodeError, got a decoded value")
  return result.left
}

// Values built from descriptors are only typed as records; the descriptors guarantee the shape.
const accountOf = (type: AccountType, data: Record<string, unknown>): NtAccount => ({ type, data }) as unknown as NtAccount

const accountTypes = Object.keys(ACCOUNT_LAYOUTS) as Array<AccountType>
const goldenAccounts = Object.entries(golden.accounts) as Array<[AccountType, (typeof golden.accounts)["Bundle"]]>

describe("golden account vectors", () => {
  it.each(goldenAccounts)("%s decodes to the SDK's values and re-encodes byte for byte", (type, vector) => {
    const account = rightOf(decodeAccount(fromHex(vector.hex)))
    expect(account.type).toBe(type)
    expect(toJson(account.data)).toEqual(vector.decoded)
    expect(toHex(encodeAccount(account))).toBe(vector.hex)
  })

  it.each(goldenAccounts)("%s encodes from the SDK's values to the vector bytes", (type, vector) => {
    const data = structFromJson(ACCOUNT_LAYOUTS[type].fields, vector.decoded)
    expect(toHex(encodeAccount(accountOf(type, data)))).toBe(vector.hex)
  })

  it("decodes amounts as bigint, small integers as number, keys as base58, bytes as Uint8Array", () => {
    const bundle = rightOf(decodeBundle(fromHex(golden.accounts.Bundle.hex)))
    expect(bundle.totalShares).toBe(98_000_000_000n)
    expect(bundle.managerMfeeShares).toBe(123_456n)
    expect(bundle.assetDecimals).toBe(6)
    expect(bundle.withdrawalCurve).toBe(1)
    expect(bundle.assetAddress).toBe("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
    expect(bundle.name).toEqual(new Uint8Array([...new TextEncoder().encode("sample"), ...new Uint8Array(26)]))
    expect(bundle.referralTiers[4]).toEqual({ threshold: 10_000_000_000_000n, pfeeBps: 0, mfeeBps: 5000 })
    const user = rightOf(decodeUserBundleAccount(fromHex(golden.accounts.UserBundleAccount.hex)))
    expect(user.netDeposits).toBe(-5n)
    expect(user.referrer).toBe("GgBaCs3NpeEJ7YhVtQzE9rqwG5azSMPmNJydJVJs2e92")
    const referrer = rightOf(decodeReferrerAccount(fromHex(golden.accounts.ReferrerAccount.hex)))
    expect(referrer.referredNetDeposits).toBe(-1_000_000n)
    expect(rightOf(decodeOracleData(fromHex(golden.accounts.OracleData.hex))).averageExternalEquity).toBe(97_500_000_000n)
    expect(rightOf(decodeBundleTempData(fromHex(golden.accounts.BundleTempData.hex))).pausedDepositsWithdrawals).toBe(true)
  })

  it("exports the vector sizes and discriminators", () => {
    expect(USER_BUNDLE_ACCOUNT_SIZE).toBe(golden.accounts.UserBundleAccount.size)
    expect(USER_BUNDLE_ACCOUNT_SIZE).toBe(440)
    expect(REFERRER_ACCOUNT_SIZE).toBe(219)
    expect(ORACLE_DATA_SIZE).toBe(88)
    expect(BUNDLE_TEMP_DATA_SIZE).toBe(267)
    expect(bundleSize(golden.accounts.Bundle.receivers)).toBe(golden.accounts.Bundle.size)
    expect(bundleSize(2)).toBe(621)
    expect(bundleSize(0)).toBe(557)
    for (const [type, vector] of goldenAccounts) expect(toHex(ACCOUNT_DISCRIMINATORS[type])).toBe(vector.discriminator)
  })

  it("has Anchor discriminators sha256('account:<Name>')[0..8] for all 8 account types", () => {
    expect(accountTypes).toHaveLength(8)
    for (const type of accountTypes) {
      const expected = createHash("sha256").update(`account:${type}`).digest().subarray(0, 8)
      expect(toHex(ACCOUNT_DISCRIMINATORS[type])).toBe(toHex(expected))
    }
  })
})

describe("decode rules", () => {
  const bundleBytes = fromHex(golden.accounts.Bundle.hex)
  const userBytes = fromHex(golden.accounts.UserBundleAccount.hex)

  it("reads a Bundle sequentially and ignores trailing bytes", () => {
    const padded = new Uint8Array([...bundleBytes, ...new Uint8Array(200).fill(7)])
    expect(rightOf(decodeBundle(padded))).toEqual(rightOf(decodeBundle(bundleBytes)))
  })

  it("accepts a fixed-size account with trailing bytes but not one below its size", () => {
    const padded = new Uint8Array([...userBytes, 1, 2, 3])
    expect(rightOf(decodeUserBundleAccount(padded))).toEqual(rightOf(decodeUserBundleAccount(userBytes)))
    const short = leftOf(decodeUserBundleAccount(userBytes.subarray(0, USER_BUNDLE_ACCOUNT_SIZE - 1)))
    expect(short.reason).toBe("TOO_SHORT")
    expect(short._tag).toBe("DecodeError")
  })

  it("reports every truncation of every golden account as TOO_SHORT", () => {
    for (const [, vector] of goldenAccounts) {
      const bytes = fromHex(vector.hex)
      for (let length = 0; length < bytes.length; length++) {
        expect(leftOf(decodeAccount(bytes.subarray(0, length))).reason).toBe("TOO_SHORT")
      }
    }
  })

  it("rejects an unknown discriminator, and another type's discriminator in a specific decoder", () => {
    const unknown = new Uint8Array(bundleBytes)
    unknown[0] = 0
    expect(leftOf(decodeAccount(unknown)).reason).toBe("UNKNOWN_DISCRIMINATOR")
    expect(leftOf(decodeBundle(userBytes)).reason).toBe("UNKNOWN_DISCRIMINATOR")
    expect(leftOf(decodeUserBundleAccount(bundleBytes)).reason).toBe("UNKNOWN_DISCRIMINATOR")
  })

  it("rejects bool bytes other than 0 and 1, as Borsh does", () => {
    const permissionnedOffset = 285 + 32 * 2
    const bundle = new Uint8Array(bundleBytes)
    bundle[permissionnedOffset] = 2
    expect(leftOf(decodeBundle(bundle)).reason).toBe("INVALID_DATA")
    const user = new Uint8Array(userBytes)
    user[222] = 0xff // switch_active
    expect(leftOf(decodeUserBundleAccount(user)).reason).toBe("INVALID_DATA")
  })

  it("reports a Vec length running past the data as TOO_SHORT", () => {
    const bundle = new Uint8Array(bundleBytes)
    bundle.set([0xff, 0xff, 0xff, 0xff], 136) // allocated_receivers length
    expect(leftOf(decodeBundle(bundle)).reason).toBe("TOO_SHORT")
  })

  it("decodes a Buffer into plain, unaliased Uint8Array fields", () => {
    const buffer = Buffer.from(golden.accounts.Bundle.hex, "hex")
    const bundle = rightOf(decodeBundle(buffer))
    expect(Object.getPrototypeOf(bundle.name)).toBe(Uint8Array.prototype)
    buffer[8] = 0
    expect(bundle.name[0]).toBe("s".charCodeAt(0))
  })
})

describe("encode", () => {
  const bundle = rightOf(decodeBundle(fromHex(golden.accounts.Bundle.hex)))

  it("sizes a Bundle by its receiver count", () => {
    const receivers = [bundle.manager, bundle.keeper, bundle.treasuryAccount, bundle.assetAddress, bundle.manager]
    const bytes = encodeBundle({ ...bundle, allocatedReceivers: receivers })
    expect(bytes).toHaveLength(bundleSize(5))
    expect(rightOf(decodeBundle(bytes)).allocatedReceivers).toEqual(receivers)
  })

  it("refuses byte arrays of the wrong length instead of padding them", () => {
    expect(() => encodeBundle({ ...bundle, name: new Uint8Array(31) })).toThrow(/expected 32 bytes/)
    expect(() => encodeBundle({ ...bundle, referralTiers: bundle.referralTiers.slice(0, 4) })).toThrow()
  })

  it("refuses out-of-range integers", () => {
    const user = rightOf(decodeUserBundleAccount(fromHex(golden.accounts.UserBundleAccount.hex)))
    expect(() => encodeUserBundleAccount({ ...user, pendingDeposit: -1n })).toThrow()
    expect(() => encodeUserBundleAccount({ ...user, feeOverrideFlags: 256 })).toThrow()
  })
})

describe("properties", () => {
  for (const type of accountTypes) {
    it.prop(
      `${type}: random field values round-trip through encode and decode`,
      [structArbitrary(ACCOUNT_LAYOUTS[type].fields)],
      ([data]) => {
        const account = accountOf(type, data)
        const bytes = encodeAccount(account)
        const expectedSize = account.type === "Bundle"
          ? bundleSize(account.data.allocatedReceivers.length)
          : ACCOUNT_LAYOUTS[type].size
        expect(bytes).toHaveLength(expectedSize ?? -1)
        expect(toHex(bytes.subarray(0, 8))).toBe(toHex(ACCOUNT_DISCRIMINATORS[type]))
        const decoded = rightOf(decodeAccount(bytes))
        expect(decoded).toEqual(account)
        expect(encodeAccount(decoded)).toEqual(bytes)
      },
      { fastCheck: { numRuns: 150 } }
    )
  }

  const goldenBytes = goldenAccounts.map(([, vector]) => fromHex(vector.hex))
  const discriminators = accountTypes.map((type) => ACCOUNT_DISCRIMINATORS[type])
  const hostileBytes = FastCheck.oneof(
    FastCheck.uint8Array({ maxLength: 700 }),
    FastCheck.tuple(FastCheck.constantFrom(...discriminators), FastCheck.uint8Array({ maxLength: 700 })).map(
      ([discriminator, tail]) => new Uint8Array([...discriminator, ...tail])
    ),
    FastCheck.tuple(FastCheck.constantFrom(...goldenBytes), FastCheck.nat()).map(([bytes, cut]) =>
      bytes.subarray(0, cut % bytes.length)
    ),
    FastCheck.tuple(
      FastCheck.constantFrom(...goldenBytes),
      FastCheck.array(FastCheck.tuple(FastCheck.nat(), FastCheck.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 })
    ).map(([bytes, edits]) => {
      const mutated = new Uint8Array(bytes)
      for (const [position, value] of edits) mutated[8 + (position % (mutated.length - 8))] = value
      return mutated
    })
  )

  it.prop(
    "decodeAccount never throws on hostile bytes, and what it accepts re-decodes to the same value",
    [hostileBytes],
    ([bytes]) => {
      const result = decodeAccount(bytes)
      if (Either.isLeft(result)) {
        expect(["TOO_SHORT", "UNKNOWN_DISCRIMINATOR", "INVALID_DATA"]).toContain(result.left.reason)
        return
      }
      expect(toHex(ACCOUNT_DISCRIMINATORS[result.right.type])).toBe(toHex(bytes.subarray(0, 8)))
      expect(rightOf(decodeAccount(encodeAccount(result.right)))).toEqual(result.right)
    },
    { fastCheck: { numRuns: 3000 } }
  )

  it.prop(
    "decodeAccount turns random bytes into TOO_SHORT or UNKNOWN_DISCRIMINATOR",
    [FastCheck.uint8Array({ maxLength: 600 })],
    ([bytes]) => {
      const error = leftOf(decodeAccount(bytes))
      expect(error.reason).toBe(bytes.length < 8 ? "TOO_SHORT" : "UNKNOWN_DISCRIMINATOR")
    },
    { fastCheck: { numRuns: 1000 } }
  )
})

describe("toJson", () => {
  it("applies the project's JSON conventions recursively", () => {
    const value = {
      amount: -5n,
      bps: 80,
      curve: 0.5,
      owner: "EpZtPfeiyT7avVCuKfucUCj4Kaj81sF87aeLKNPghGvh",
      padding: new Uint8Array([0, 15, 255]),
      tierIndex: null,
      active: false,
      tiers: [{ threshold: 10n ** 20n, pfeeBps: 0 }]
    }
    expect(toJson(value)).toEqual({
      amount: "-5",
      bps: 80,
      curve: 0.5,
      owner: "EpZtPfeiyT7avVCuKfucUCj4Kaj81sF87aeLKNPghGvh",
      padding: "000fff",
      tierIndex: null,
      active: false,
      tiers: [{ threshold: "100000000000000000000", pfeeBps: 0 }]
    })
  })

  it("produces values JSON.stringify accepts for every decoded account", () => {
    for (const [, vector] of goldenAccounts) {
      const account = rightOf(decodeAccount(fromHex(vector.hex)))
      expect(JSON.parse(JSON.stringify(toJson(account)))).toEqual(toJson(account))
    }
  })
})

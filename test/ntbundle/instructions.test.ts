import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Either, FastCheck } from "effect"
import { createHash } from "node:crypto"
import golden from "../fixtures/ntbundle-golden.json" with { type: "json" }
import { fromHex, toHex } from "../../src/ntbundle/bytes.ts"
import type { DecodeError } from "../../src/ntbundle/errors.ts"
import { INSTRUCTION_LAYOUTS } from "../../src/ntbundle/generated/instructions.ts"
import type { FieldDescriptor, FieldType } from "../../src/ntbundle/generated/types.ts"
import { arbitraryOf, BIGINT_RANGES, structArbitrary } from "../support/fieldArbitraries.ts"
import {
  decodeInstructionData,
  encodeInstructionData,
  INSTRUCTION_DISCRIMINATORS,
  type InstructionName,
  type NtInstructionData
} from "../../src/ntbundle/instructions.ts"
import { toJson } from "../../src/ntbundle/json.ts"


// Values built from descriptors are only typed as records; the descriptors guarantee the shape.
const instructionOf = (name: InstructionName, args: Record<string, unknown>): NtInstructionData =>
  ({ name, args }) as unknown as NtInstructionData

const rightOf = <A>(result: Either.Either<A, DecodeError>): A => {
  if (Either.isLeft(result)) throw new Error(`expected a decoded value, got ${result.left.reason}: ${result.left.message}`)
  return result.right
}
const leftOf = <A>(result: Either.Either<A, DecodeError>): DecodeError => {
  if (Either.isRight(result)) throw new Error("expected a DecodeError, got a decoded value")
  return result.left
}

const instructionNames = Object.keys(INSTRUCTION_LAYOUTS) as Array<InstructionName>
const goldenInstructions = golden.instructions.map((vector) => [vector.source, vector] as const)

describe("golden instruction data", () => {
  it.each(goldenInstructions)("%s decodes to its name and arguments", (_source, vector) => {
    const decoded = rightOf(decodeInstructionData(fromHex(vector.hex)))
    expect(decoded.name).toBe(vector.name)
    expect(toJson(decoded.args)).toEqual(vector.args)
    expect(toHex(encodeInstructionData(decoded))).toBe(vector.hex)
  })

  it("encodes the builder flows' instructions from typed arguments", () => {
    const hexOf = (ix: NtInstructionData): string => toHex(encodeInstructionData(ix))
    expect(hexOf({ name: "request_deposit", args: { amount: 1_000_000n } })).toBe("f3cac5d78761d56d40420f0000000000")
    expect(hexOf({ name: "request_deposit", args: { amount: 100_000_000n } })).toBe("f3cac5d78761d56d00e1f50500000000")
    expect(hexOf({ name: "request_withdrawal", args: { sharesAmount: 49_494_949n } })).toBe(
      "fb5579cd38c90cb1a53bf302000000000000000000000000"
    )
    expect(hexOf({ name: "initialize_bundle_depositor", args: {} })).toBe("7e06f22416d12302")
    expect(hexOf({ name: "set_user_referrer", args: {} })).toBe("47a7993c1a1e3272")
    expect(hexOf({ name: "register_referrer", args: {} })).toBe("7ae5d7a96491c678")
    expect(hexOf({ name: "referrer_request_withdraw", args: {} })).toBe("0ef65e997f75931f")
  })

  it("has 50 instructions with Anchor discriminators sha256('global:<snake_name>')[0..8]", () => {
    expect(instructionNames).toHaveLength(50)
    for (const name of instructionNames) {
      expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/)
      const expected = createHash("sha256").update(`global:${name}`).digest().subarray(0, 8)
      expect(toHex(INSTRUCTION_DISCRIMINATORS[name])).toBe(toHex(expected))
    }
  })
})

describe("argument layouts", () => {
  it("lays out initialize_bundle's 19 arguments in IDL order", () => {
    const name = new Uint8Array(32).fill(0x61)
    const keeper = "1111111111111111111111111111111D" as Address
    const data = encodeInstructionData({
      name: "initialize_bundle",
      args: {
        name,
        keeper,
        depositFee: 1,
        withdrawalFee: 2,
        performanceFee: 3,
        managementFeeBps: 4,
        oracleBuffer: 5n,
        maxDepositAmount: 6n,
        minDepositAmount: 7n,
        withdrawalDelay: 8n,
        withdrawalTMin: -9n,
        withdrawalTMax: 10n,
        withdrawalCurve: 0.5,
        oracleMaxAge: 11n,
        oracleUpdateTimeLimit: 12n,
        withdrawalRedemptionRequestCutoffTs: 13n,
        withdrawalRedemptionUnlockCurrentCycleTs: 14n,
        withdrawalRedemptionUnlockNextCycleTs: 15n,
        permissionned: true
      }
    })
    expect(data).toHaveLength(8 + 32 + 32 + 4 * 4 + 8 * 4 + 8 * 2 + 4 + 8 * 5 + 1)
    expect(toHex(data.subarray(8, 40))).toBe("61".repeat(32))
    expect(toHex(data.subarray(72, 76))).toBe("01000000") // deposit_fee follows keeper
    expect(toHex(data.subarray(120, 128))).toBe("f7ffffffffffffff") // withdrawal_t_min = -9
    expect(toHex(data.subarray(136, 140))).toBe("0000003f") // withdrawal_curve = 0.5f32
    expect(data[data.length - 1]).toBe(1)
  })

  it("prefixes a Vec<ReferralTier> with its u32 length and requires the prefix", () => {
    const tiers = [
      { threshold: 10_000_000_000n, pfeeBps: 0, mfeeBps: 1000 },
      { threshold: 500_000_000_000n, pfeeBps: 250, mfeeBps: 2000 }
    ]
    const data = encodeInstructionData({ name: "set_referral_tier_config", args: { referralTiers: tiers } })
    expect(toHex(data.subarray(0, 12))).toBe("094e8988b6744c8a02000000")
    expect(data).toHaveLength(8 + 4 + 16 * 2)
    expect(rightOf(decodeInstructionData(data))).toEqual({ name: "set_referral_tier_config", args: { referralTiers: tiers } })
    const empty = encodeInstructionData({ name: "set_referral_tier_config", args: { referralTiers: [] } })
    expect(toHex(empty)).toBe("094e8988b6744c8a00000000")
    // Without the length the data is incomplete, not an empty list.
    expect(leftOf(decodeInstructionData(empty.subarray(0, 8))).reason).toBe("TOO_SHORT")
  })

  it("ignores bytes after the arguments, as the program's dispatcher does", () => {
    const data = fromHex("f3cac5d78761d56d40420f0000000000ffff")
    expect(rightOf(decodeInstructionData(data))).toEqual({ name: "request_deposit", args: { amount: 1_000_000n } })
  })

  it("rejects short data, unknown discriminators and invalid bools", () => {
    expect(leftOf(decodeInstructionData(fromHex("f3cac5d78761d5"))).reason).toBe("TOO_SHORT")
    expect(leftOf(decodeInstructionData(fromHex("f3cac5d78761d56d40420f"))).reason).toBe("TOO_SHORT")
    expect(leftOf(decodeInstructionData(fromHex("0000000000000000"))).reason).toBe("UNKNOWN_DISCRIMINATOR")
    expect(leftOf(decodeInstructionData(fromHex("6aabc61fb7db9f5002"))).reason).toBe("INVALID_DATA") // pause: 2
  })

  it("refuses to encode amounts that do not fit their type", () => {
    expect(() => encodeInstructionData({ name: "request_deposit", args: { amount: 2n ** 64n } })).toThrow()
    expect(() => encodeInstructionData({ name: "request_deposit", args: { amount: -1n } })).toThrow()
  })
})

describe("properties", () => {
  it.prop(
    "random arguments of every instruction round-trip through encode and decode",
    [FastCheck.constantFrom(...instructionNames).chain((name) =>
      structArbitrary(INSTRUCTION_LAYOUTS[name].fields).map((args) => instructionOf(name, args))
    )],
    ([ix]) => {
      const data = encodeInstructionData(ix)
      expect(toHex(data.subarray(0, 8))).toBe(toHex(INSTRUCTION_DISCRIMINATORS[ix.name]))
      const decoded = rightOf(decodeInstructionData(data))
      expect(decoded).toEqual(ix)
      expect(encodeInstructionData(decoded)).toEqual(data)
    },
    { fastCheck: { numRuns: 2000 } }
  )

  const discriminators = instructionNames.map((name) => INSTRUCTION_DISCRIMINATORS[name])
  const goldenData = golden.instructions.map((vector) => fromHex(vector.hex))
  const hostileBytes = FastCheck.oneof(
    FastCheck.uint8Array({ maxLength: 300 }),
    FastCheck.tuple(FastCheck.constantFrom(...discriminators), FastCheck.uint8Array({ maxLength: 300 })).map(
      ([discriminator, tail]) => new Uint8Array([...discriminator, ...tail])
    ),
    FastCheck.tuple(FastCheck.constantFrom(...goldenData), FastCheck.nat()).map(([bytes, cut]) =>
      bytes.subarray(0, cut % bytes.length)
    )
  )

  it.prop(
    "decodeInstructionData never throws on hostile bytes, and what it accepts re-decodes to the same value",
    [hostileBytes],
    ([bytes]) => {
      const result = decodeInstructionData(bytes)
      if (Either.isLeft(result)) {
        expect(["TOO_SHORT", "UNKNOWN_DISCRIMINATOR", "INVALID_DATA"]).toContain(result.left.reason)
        return
      }
      expect(toHex(INSTRUCTION_DISCRIMINATORS[result.right.name])).toBe(toHex(bytes.subarray(0, 8)))
      expect(rightOf(decodeInstructionData(encodeInstructionData(result.right)))).toEqual(result.right)
    },
    { fastCheck: { numRuns: 3000 } }
  )
})

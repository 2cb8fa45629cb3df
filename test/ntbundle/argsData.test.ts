import { describe, expect, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { encodeInstructionData } from "../../src/ntbundle/instructions.ts"
import { noArgsData, u128ArgData, u64ArgData } from "../../src/ntbundle/ix/argsData.ts"

const random = (bits: number) => BigInt(`0x${randomBytes(bits / 8).toString("hex")}`) >> BigInt(Math.floor(Math.random() * bits))

describe("direct instruction data", () => {
  it("equals the codec's bytes for the instructions builds encode", () => {
    for (const name of ["initialize_bundle_depositor", "set_user_referrer", "register_referrer", "referrer_request_withdraw"] as const) {
      expect(noArgsData(name)).toEqual(encodeInstructionData({ name, args: {} }))
    }
    for (const amount of [0n, 1n, 255n, 256n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 64n - 1n, ...Array.from({ length: 300 }, () => random(64))]) {
      expect(u64ArgData("request_deposit", amount)).toEqual(encodeInstructionData({ name: "request_deposit", args: { amount } }))
    }
    for (const sharesAmount of [0n, 1n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 96n + 7n, 2n ** 128n - 1n, ...Array.from({ length: 300 }, () => random(128))]) {
      expect(u128ArgData("request_withdrawal", sharesAmount)).toEqual(
        encodeInstructionData({ name: "request_withdrawal", args: { sharesAmount } })
      )
    }
  })

  it("refuses values outside the argument's range, as the codec does", () => {
    for (const amount of [-1n, 2n ** 64n]) {
      expect(() => u64ArgData("request_deposit", amount)).toThrow(RangeError)
      expect(() => encodeInstructionData({ name: "request_deposit", args: { amount } })).toThrow()
    }
    for (const sharesAmount of [-1n, 2n ** 128n]) {
      expect(() => u128ArgData("request_withdrawal", sharesAmount)).toThrow(RangeError)
      expect(() => encodeInstructionData({ name: "request_withdrawal", args: { sharesAmount } })).toThrow()
    }
  })
})

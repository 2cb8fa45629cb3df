import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { rawFromMajorUnits } from "../../../src/api/actions/majorUnits.ts"

const raw = (text: string | undefined, decimals = 6) => rawFromMajorUnits(text, decimals, "USDC")

describe("amounts typed in a blink (major units)", () => {
  it("become raw minor units exactly, without a float", () => {
    expect(raw("12.5")).toEqual(Either.right(12_500_000n))
    expect(raw("0.000001")).toEqual(Either.right(1n))
    expect(raw("18446744073709.551615")).toEqual(Either.right(18_446_744_073_709_551_615n))
    expect(raw("7", 0)).toEqual(Either.right(7n))
    expect(raw("100.10")).toEqual(Either.right(100_100_000n))
  })

  it("refuses what is not an amount of this token, naming the rule", () => {
    const message = (text: string | undefined, decimals = 6) => Either.match(raw(text, decimals), { onLeft: (e) => `${e.code}: ${e.message}`, onRight: String })
    expect(message(undefined)).toMatch(/^MISSING_FIELD: .*amount=/)
    expect(message("1.0000001")).toBe("INVALID_AMOUNT_RAW: USDC has 6 decimals; the amount has 7")
    expect(message("0")).toMatch(/more than zero/)
    expect(message("0.000000")).toMatch(/more than zero/)
    expect(message("18446744073709.551616")).toMatch(/larger than any token account/)
    for (const bad of ["", "-1", "1e6", "0x10", "01", " 1", "1.", ".5", "1,5", "Infinity", "NaN"]) {
      expect(message(bad)).toMatch(/^INVALID_AMOUNT_RAW: /)
    }
  })
})

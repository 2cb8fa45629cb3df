import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Address, AsOf, chainEnvelope } from "../../src/api/schemas.ts"

describe("shared API schemas", () => {
  it("Address takes base58 strings of 32 bytes only", () => {
    const decode = Schema.decodeUnknownEither(Address)
    for (const good of ["11111111111111111111111111111111", "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"]) {
      expect(Either.isRight(decode(good)), good).toBe(true)
    }
    for (const bad of ["", "0", "1111111111111111111111111111111", "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU1", "O0Il", 42]) {
      expect(Either.isLeft(decode(bad)), String(bad)).toBe(true)
    }
  })

  it("chainEnvelope wraps data with success and asOf", () => {
    const Wrapped = chainEnvelope(Schema.Struct({ n: Schema.Number }))
    const value = { success: true as const, data: { n: 1 }, asOf: { slot: 10, blockTime: null } }
    expect(Schema.decodeUnknownSync(Wrapped)(value)).toEqual(value)
    expect(() => Schema.decodeUnknownSync(AsOf)({ slot: -1, blockTime: 0 })).toThrow()
    expect(() => Schema.decodeUnknownSync(Wrapped)({ success: true, data: { n: 1 } })).toThrow()
  })
})

import { getAddressDecoder, isAddress } from "@solana/kit"
import { randomBytes } from "node:crypto"
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

  it("Address agrees with kit's isAddress on random keys, near misses and long input", () => {
    const decode = Schema.decodeUnknownEither(Address)
    const samples: Array<string> = ["1".repeat(44), "1".repeat(33), "z".repeat(44), "z".repeat(43), "2".repeat(10_000)]
    for (let i = 0; i < 300; i++) {
      const bytes = randomBytes(32)
      if (i % 3 === 0) bytes.fill(0, 0, i % 32) // leading zero bytes are leading 1s
      const text = getAddressDecoder().decode(bytes)
      samples.push(text, text.slice(1), `${text}1`, `1${text}`, text.replace(/.$/, "0"))
    }
    for (const sample of samples) expect(Either.isRight(decode(sample)), sample).toBe(isAddress(sample))
  })

  it("chainEnvelope wraps data with success and asOf", () => {
    const Wrapped = chainEnvelope(Schema.Struct({ n: Schema.Number }))
    const value = { success: true as const, data: { n: 1 }, asOf: { slot: 10, blockTime: null } }
    expect(Schema.decodeUnknownSync(Wrapped)(value)).toEqual(value)
    expect(() => Schema.decodeUnknownSync(AsOf)({ slot: -1, blockTime: 0 })).toThrow()
    expect(() => Schema.decodeUnknownSync(Wrapped)({ success: true, data: { n: 1 } })).toThrow()
  })
})

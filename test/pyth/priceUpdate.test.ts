import { getAddressDecoder } from "@solana/kit"
import { describe, expect, it } from "vitest"
import { Either } from "effect"
import { decodePriceUpdateV2, priceAsNumber, PRICE_UPDATE_V2_SIZE } from "../../src/pyth/priceUpdate.ts"

// Bytes laid out by hand from the receiver's Borsh layout, not by the sandbox's encoder.
const hex = (text: string) => Uint8Array.from(Buffer.from(text, "hex"))
const DISCRIMINATOR = hex("22f123639d7ef4cd") // sha256("account:PriceUpdateV2")[0..8]
const AUTHORITY = new Uint8Array(32).fill(7)
const FEED_ID = hex("ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d")

const le = (bytes: number, value: bigint): Uint8Array => {
  const out = new Uint8Array(bytes)
  let v = BigInt.asUintN(bytes * 8, value)
  for (let i = 0; i < bytes; i++) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

const account = (level: Uint8Array, fields: { price?: bigint; exponent?: number; publishTime?: bigint } = {}) => {
  const parts = [
    DISCRIMINATOR,
    AUTHORITY,
    level,
    FEED_ID,
    le(8, fields.price ?? 15_012_345_678n),
    le(8, 4_200_000n),
    le(4, BigInt(fields.exponent ?? -8)),
    le(8, fields.publishTime ?? 1_763_700_000n),
    le(8, 1_763_699_999n),
    le(8, 15_000_000_000n),
    le(8, 5_000_000n),
    le(8, 371_234_567n)
  ]
  const data = new Uint8Array(PRICE_UPDATE_V2_SIZE)
  let offset = 0
  for (const part of parts) {
    data.set(part, offset)
    offset += part.length
  }
  return data
}

describe("decodePriceUpdateV2", () => {
  it("reads a fully verified update (one-byte level, then one byte of padding)", () => {
    const decoded = Either.getOrThrow(decodePriceUpdateV2(account(Uint8Array.of(1))))
    expect(decoded).toEqual({
      writeAuthority: getAddressDecoder().decode(AUTHORITY),
      verificationLevel: { _tag: "Full" },
      feedId: "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d",
      price: 15_012_345_678n,
      conf: 4_200_000n,
      exponent: -8,
      publishTime: 1_763_700_000,
      prevPublishTime: 1_763_699_999,
      emaPrice: 15_000_000_000n,
      emaConf: 5_000_000n,
      postedSlot: 371_234_567n
    })
  })

  it("reads a partially verified update, whose fields start one byte later", () => {
    const decoded = Either.getOrThrow(decodePriceUpdateV2(account(Uint8Array.of(0, 5), { price: -3n, exponent: 2 })))
    expect(decoded.verificationLevel).toEqual({ _tag: "Partial", numSignatures: 5 })
    expect(decoded.feedId).toBe("ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d")
    expect(decoded.price).toBe(-3n)
    expect(decoded.exponent).toBe(2)
    expect(decoded.postedSlot).toBe(371_234_567n)
  })

  it("reads the layout at any byte offset of a larger buffer", () => {
    const bytes = account(Uint8Array.of(1))
    const buffer = new Uint8Array(bytes.length + 3)
    buffer.set(bytes, 3)
    expect(Either.getOrThrow(decodePriceUpdateV2(buffer.subarray(3))).price).toBe(15_012_345_678n)
  })

  it("refuses other accounts and truncated or malformed data without throwing", () => {
    const wrongDiscriminator = account(Uint8Array.of(1))
    wrongDiscriminator[0] = 0
    const unknownVariant = account(Uint8Array.of(2))
    for (const [data, reason] of [
      [new Uint8Array(), /less than a discriminator/],
      [wrongDiscriminator, /not a PriceUpdateV2/],
      [unknownVariant, /verification level variant 2/],
      [account(Uint8Array.of(1)).subarray(0, 100), /needs 133 bytes, got 100/],
      [account(Uint8Array.of(0, 3)).subarray(0, 133), /needs 134 bytes, got 133/],
      [DISCRIMINATOR, /ends before the verification level/]
    ] as const) {
      const decoded = decodePriceUpdateV2(data)
      expect(Either.isLeft(decoded)).toBe(true)
      if (Either.isLeft(decoded)) expect(decoded.left.message).toMatch(reason)
    }
  })
})

describe("priceAsNumber", () => {
  it("is the float nearest price × 10^exponent", () => {
    expect(priceAsNumber(15_012_345_678n, -8)).toBe(150.12345678)
    expect(priceAsNumber(99_987_000n, -8)).toBe(0.99987)
    expect(priceAsNumber(12n, 3)).toBe(12_000)
    expect(priceAsNumber(-5n, -1)).toBe(-0.5)
  })
})

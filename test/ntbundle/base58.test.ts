import { describe, expect, it } from "@effect/vitest"
import { getBase58Decoder } from "@solana/kit"
import { randomBytes } from "node:crypto"
import { decodeBase58, encodeBase58, encodeBase58Bytes32 } from "../../src/ntbundle/base58.ts"

const kitText = getBase58Decoder()

describe("encodeBase58", () => {
  it("equals kit's base58 for odd and even lengths, with and without leading zero bytes", () => {
    for (let round = 0; round < 4_000; round++) {
      const length = [0, 1, 2, 3, 7, 31, 32, 33, 64, 65][round % 10]!
      const bytes = new Uint8Array(randomBytes(length))
      for (let index = 0; index < Math.min(round % 4, length); index++) bytes[index] = 0
      const text = encodeBase58(bytes)
      expect(text).toBe(kitText.decode(bytes))
      expect(decodeBase58(text)).toEqual(bytes)
    }
  })

  it("encodes all-0xff inputs (the largest values of each length)", () => {
    for (const length of [1, 2, 31, 32, 64]) {
      const bytes = new Uint8Array(length).fill(0xff)
      expect(encodeBase58(bytes)).toBe(kitText.decode(bytes))
    }
  })
})

describe("encodeBase58Bytes32", () => {
  it("equals kit's base58 for the all-zero key, keys with zero runs and a short input", () => {
    const kit = getBase58Decoder()
    const zero = new Uint8Array(32)
    expect(encodeBase58Bytes32(zero)).toBe(kit.decode(zero))
    expect(encodeBase58Bytes32(new Uint8Array(40))).toBe(kit.decode(zero))
    for (let i = 0; i < 32; i++) {
      const key = new Uint8Array(32)
      key[i] = 1 + (i % 255)
      expect(encodeBase58Bytes32(key)).toBe(kit.decode(key))
    }
    const key = randomBytes(32)
    expect(encodeBase58Bytes32(key)).toBe(kit.decode(key))
    expect(encodeBase58Bytes32(new Uint8Array(31))).toBe(kit.decode(new Uint8Array(31)))
  })
})

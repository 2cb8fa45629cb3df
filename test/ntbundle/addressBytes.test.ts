import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { getAddressDecoder } from "@solana/kit"
import { addressBytesOf, addressTextOf, rememberAddressBytes } from "../../src/ntbundle/addressBytes.ts"

describe("address memos", () => {
  const kit = getAddressDecoder()

  it("text of bytes equals kit's, for fresh and repeated keys, views into larger buffers included", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.uint8Array({ minLength: 40, maxLength: 40 }), FastCheck.nat(8), (buffer, offset) => {
        const view = buffer.subarray(offset, offset + 32)
        const expected = kit.decode(view.slice())
        expect(addressTextOf(view)).toBe(expected)
        expect(addressTextOf(view.slice())).toBe(expected)
        // the memo is keyed by content: changing the bytes changes the answer
        view[0] = (view[0]! + 1) % 256
        expect(addressTextOf(view)).toBe(kit.decode(view.slice()))
      }),
      { numRuns: 500 }
    )
  })

  it("keys that differ only between their first and last four bytes keep their own text, across generations", () => {
    const keyOf = (middle: number, end: number) => {
      const key = new Uint8Array(32).fill(7)
      key[10] = middle
      key[28] = end & 0xff
      key[29] = end >> 8
      return key
    }
    // more keys than two generations hold; each end value shared by 8 keys that differ in the middle only
    for (let round = 0; round < 2; round++) {
      for (let end = 0; end < 3_000; end += round === 0 ? 1 : 97) {
        for (let middle = 0; middle < 8; middle++) {
          const key = keyOf(middle, end)
          expect(addressTextOf(key)).toBe(kit.decode(key))
        }
      }
    }
  })

  it("bytes of text round-trip; invalid text is null; remembered bytes are returned as given", () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, index) => index * 7)
    const text = addressTextOf(bytes)
    expect(addressBytesOf(text)).toEqual(bytes)
    expect(addressBytesOf("not base58 0OIl")).toBeNull()
    expect(addressBytesOf("1111")).toBeNull()
    const derived = Uint8Array.from({ length: 32 }, (_, index) => 255 - index)
    const derivedText = kit.decode(derived)
    rememberAddressBytes(derivedText, derived)
    expect(addressBytesOf(derivedText)).toBe(derived)
  })
})

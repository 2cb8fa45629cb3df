import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { type Address, getAddressCodec, isSolanaError, SOLANA_ERROR__CODECS__INVALID_BYTE_LENGTH } from "@solana/kit"
import { addressCodec } from "../../src/ntbundle/bytes.ts"

describe("addressCodec (the generated codecs' pubkey)", () => {
  const kit = getAddressCodec()

  it("reads and writes what kit's address codec does, at any offset", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.uint8Array({ minLength: 48, maxLength: 48 }), FastCheck.nat(16), (buffer, offset) => {
        const [text, next] = addressCodec.read(buffer, offset)
        expect([text, next]).toEqual(kit.read(buffer, offset))
        expect(addressCodec.encode(text)).toEqual(kit.encode(text))
        const target = new Uint8Array(48)
        expect(addressCodec.write(text, target, offset)).toBe(offset + 32)
        expect(target.subarray(offset, offset + 32)).toEqual(buffer.subarray(offset, offset + 32))
      }),
      { numRuns: 500 }
    )
  })

  it("fails as kit does on too few bytes (a truncation) and on text that is not an address", () => {
    const short = new Uint8Array(40)
    const truncation = (() => {
      try {
        addressCodec.read(short, 9)
      } catch (error) {
        return error
      }
    })()
    expect(isSolanaError(truncation, SOLANA_ERROR__CODECS__INVALID_BYTE_LENGTH)).toBe(true)
    for (const bad of ["", "0OIl", "1".repeat(45), "z".repeat(44), `${"1".repeat(31)}O`]) {
      const ours = (() => { try { addressCodec.encode(bad as Address) } catch (error) { return error } })()
      const theirs = (() => { try { kit.encode(bad as Address) } catch (error) { return error } })()
      expect(ours).toBeInstanceOf(Error)
      expect((ours as Error).message).toBe((theirs as Error).message)
    }
  })
})

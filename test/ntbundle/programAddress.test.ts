import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { getAddressEncoder, getProgramDerivedAddress, type Address } from "@solana/kit"
import { encodeBase58Bytes32 } from "../../src/ntbundle/base58.ts"
import { isOnEd25519Curve } from "../../src/ntbundle/ed25519.ts"
import { createProgramAddress, findProgramAddress, findProgramAddressInto } from "../../src/ntbundle/programAddress.ts"
import { ASSOCIATED_TOKEN_PROGRAM_ID, NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { createHash } from "node:crypto"

const seedLists = FastCheck.array(FastCheck.uint8Array({ minLength: 0, maxLength: 32 }), { minLength: 0, maxLength: 4 })

describe("program-derived addresses", () => {
  it("findProgramAddress and findProgramAddressInto equal kit's async derivation", async () => {
    const programBytes = new Uint8Array(getAddressEncoder().encode(NTBUNDLE_PROGRAM_ID))
    const out = new Uint8Array(32)
    await FastCheck.assert(
      FastCheck.asyncProperty(seedLists, async (seeds) => {
        const expected = await getProgramDerivedAddress({ programAddress: NTBUNDLE_PROGRAM_ID, seeds })
        expect(findProgramAddress(seeds, NTBUNDLE_PROGRAM_ID)).toEqual(expected)
        const bump = findProgramAddressInto(seeds, programBytes, out)
        expect([encodeBase58Bytes32(out), bump]).toEqual(expected)
      }),
      { numRuns: 200 }
    )
  })

  it("createProgramAddress accepts the found bump and refuses every higher one (their hashes are on the curve)", () => {
    const programBytes = new Uint8Array(getAddressEncoder().encode(ASSOCIATED_TOKEN_PROGRAM_ID))
    FastCheck.assert(
      FastCheck.property(seedLists, (seeds) => {
        const [address, bump] = findProgramAddress(seeds, ASSOCIATED_TOKEN_PROGRAM_ID)
        expect(createProgramAddress([...seeds, Uint8Array.of(bump)], ASSOCIATED_TOKEN_PROGRAM_ID)).toBe(address)
        for (let higher = bump + 1; higher <= 255; higher++) {
          const digest = createHash("sha256")
          for (const seed of [...seeds, Uint8Array.of(higher)]) digest.update(seed)
          const bytes = digest.update(programBytes).update("ProgramDerivedAddress").digest()
          expect(isOnEd25519Curve(bytes)).toBe(true)
          expect(createProgramAddress([...seeds, Uint8Array.of(higher)], ASSOCIATED_TOKEN_PROGRAM_ID)).toBeUndefined()
        }
      }),
      { numRuns: 200 }
    )
  })

  it("rejects seeds the runtime rejects", () => {
    const program = NTBUNDLE_PROGRAM_ID as Address
    expect(() => findProgramAddress([new Uint8Array(33)], program)).toThrow(RangeError)
    expect(() => findProgramAddress(Array.from({ length: 16 }, () => new Uint8Array(1)), program)).toThrow(RangeError)
    expect(findProgramAddress(Array.from({ length: 15 }, () => new Uint8Array(1)), program)[1]).toBeGreaterThan(0)
    expect(createProgramAddress([new Uint8Array(33)], program)).toBeUndefined()
    expect(createProgramAddress(Array.from({ length: 17 }, () => new Uint8Array(1)), program)).toBeUndefined()
    expect(() => findProgramAddress([], "not-an-address")).toThrow(RangeError)
  })
})

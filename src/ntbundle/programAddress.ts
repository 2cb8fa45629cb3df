// Program-derived addresses, synchronously (kit's `getProgramDerivedAddress` is async because it
// uses WebCrypto): one implementation for the transaction builders, the projection and the
// sandbox runtime. address = sha256(seeds ‖ program ‖ "ProgramDerivedAddress"), valid only when
// it is not an ed25519 point.
import { createHash, type Hash } from "node:crypto"
import type { Address, ProgramDerivedAddress, ProgramDerivedAddressBump } from "@solana/kit"
import { GenerationalCache } from "../generationalCache.ts"
import { addressFromBytes, decodeBase58Bytes32 } from "./base58.ts"
import { isOnEd25519Curve } from "./ed25519.ts"

const MAX_SEED_LENGTH = 32
const MAX_SEEDS = 16
const PDA_MARKER = new TextEncoder().encode("ProgramDerivedAddress")

const programBytesCache = new GenerationalCache<string, Uint8Array>(1_000)

/** The 32 bytes of a program id (memoised and shared: never mutate). Throws RangeError on bad text. */
export const programIdBytes = (program: string): Uint8Array =>
  programBytesCache.getOrCompute(program, () => {
    const bytes = decodeBase58Bytes32(program)
    if (bytes === null) throw new RangeError(`not a base58 32-byte address: ${program.slice(0, 60)}`)
    return bytes
  })

const checkSeeds = (seeds: ReadonlyArray<Uint8Array>, limit: number): boolean => {
  if (seeds.length > limit) return false
  for (const seed of seeds) if (seed.length > MAX_SEED_LENGTH) return false
  return true
}

const hashSeeds = (seeds: ReadonlyArray<Uint8Array>): Hash => {
  const hash = createHash("sha256")
  for (const seed of seeds) hash.update(seed)
  return hash
}

const bumpByte = new Uint8Array(1)

/**
 * Solana's `find_program_address` on bytes: the first bump from 255 down to 1 whose address is
 * off the curve. Writes the 32 address bytes into `out` and returns the bump. The seeds are hashed
 * once; each bump continues from a copy of that state. Throws RangeError on seeds the runtime
 * rejects (more than 15 besides the bump, or one longer than 32 bytes).
 */
export const findProgramAddressInto = (seeds: ReadonlyArray<Uint8Array>, program: Uint8Array, out: Uint8Array): number => {
  if (!checkSeeds(seeds, MAX_SEEDS - 1)) {
    throw new RangeError(`at most ${MAX_SEEDS - 1} seeds of at most ${MAX_SEED_LENGTH} bytes besides the bump`)
  }
  const prefix = hashSeeds(seeds)
  for (let bump = 255; bump >= 1; bump--) {
    bumpByte[0] = bump
    const digest = prefix.copy().update(bumpByte).update(program).update(PDA_MARKER).digest()
    if (!isOnEd25519Curve(digest)) {
      out.set(digest)
      return bump
    }
  }
  throw new Error("no viable bump seed")
}

/** `find_program_address(seeds, program)` as an address and its bump. */
export const findProgramAddress = (seeds: ReadonlyArray<Uint8Array>, program: string): ProgramDerivedAddress => {
  const out = new Uint8Array(32)
  const bump = findProgramAddressInto(seeds, programIdBytes(program), out)
  return [addressFromBytes(out), bump as ProgramDerivedAddressBump]
}

/** `create_program_address` (the bump is among the seeds): undefined for invalid seeds or an on-curve hash. */
export const createProgramAddress = (seeds: ReadonlyArray<Uint8Array>, program: string): Address | undefined => {
  if (!checkSeeds(seeds, MAX_SEEDS)) return undefined
  const digest = hashSeeds(seeds).update(programIdBytes(program)).update(PDA_MARKER).digest()
  return isOnEd25519Curve(digest) ? undefined : addressFromBytes(digest)
}

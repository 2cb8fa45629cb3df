import { createHash } from "node:crypto"
import { isOffCurveAddress, type Address } from "@solana/kit"
import { encodeBase58 } from "../codec/base58.ts"
import { addressToBytes } from "./keypair.ts"

/**
 * Program derived addresses, synchronously (kit's derivation is async because it uses
 * SubtleCrypto; the runtime executes instructions synchronously). The off-curve test is kit's.
 */
const PDA_MARKER = Buffer.from("ProgramDerivedAddress")
const MAX_SEED_LENGTH = 32
const MAX_SEEDS = 16

/** `create_program_address`: undefined when the seeds are invalid or the hash lands on the curve. */
export const createProgramAddress = (seeds: ReadonlyArray<Uint8Array>, programId: string): string | undefined => {
  if (seeds.length > MAX_SEEDS) return undefined
  const hash = createHash("sha256")
  for (const seed of seeds) {
    if (seed.length > MAX_SEED_LENGTH) return undefined
    hash.update(seed)
  }
  hash.update(addressToBytes(programId)).update(PDA_MARKER)
  const candidate = encodeBase58(hash.digest())
  return isOffCurveAddress(candidate as Address) ? candidate : undefined
}

/** `find_program_address`: the first bump from 255 down that yields an off-curve address. */
export const findProgramAddress = (seeds: ReadonlyArray<Uint8Array>, programId: string): readonly [string, number] => {
  for (let bump = 255; bump >= 0; bump--) {
    const candidate = createProgramAddress([...seeds, Uint8Array.of(bump)], programId)
    if (candidate !== undefined) return [candidate, bump]
  }
  throw new Error("no viable bump seed")
}

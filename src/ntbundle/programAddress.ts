// Program-derived addresses, synchronously (kit's `getProgramDerivedAddress` is async because it
// uses WebCrypto): one implementation for the transaction builders, the projection and the
// sandbox runtime. address = sha256(seeds ‖ program ‖ "ProgramDerivedAddress"), valid only when
// it is not an ed25519 point.
import * as nodeCrypto from "node:crypto"
import type { Address, ProgramDerivedAddress, ProgramDerivedAddressBump } from "@solana/kit"
import { addressBytesOf, rememberAddressBytes } from "./addressBytes.ts"
import { addressFromBytes } from "./base58.ts"
import { isOnEd25519Curve } from "./ed25519.ts"

/** One-shot SHA-256 (`crypto.hash`, Node >= 20.12; a Hash object on older versions). */
const sha256: (input: Uint8Array) => Buffer =
  typeof nodeCrypto.hash === "function"
    ? (input) => nodeCrypto.hash("sha256", input, "buffer")
    : (input) => nodeCrypto.createHash("sha256").update(input).digest()

const MAX_SEED_LENGTH = 32
const MAX_SEEDS = 16
const PDA_MARKER = new TextEncoder().encode("ProgramDerivedAddress")

const invalidProgram = (program: string): never => {
  throw new RangeError(`not a base58 32-byte address: ${program.slice(0, 60)}`)
}

/** The 32 bytes of a program id (memoised and shared: never mutate). Throws RangeError on bad text. */
export const programIdBytes = (program: string): Uint8Array =>
  addressBytesOf(program) ?? invalidProgram(program)

const checkSeeds = (seeds: ReadonlyArray<Uint8Array>, limit: number): boolean => {
  if (seeds.length > limit) return false
  for (const seed of seeds) if (seed.length > MAX_SEED_LENGTH) return false
  return true
}

// The hash input (seeds ‖ bump ‖ program ‖ marker) is laid out once in a scratch buffer and
// hashed in one call per bump: no Hash objects to create, copy and collect.
const scratch = new Uint8Array(MAX_SEEDS * MAX_SEED_LENGTH + 32 + PDA_MARKER.length)

/** Writes the seeds, then room for `extra` bytes, then program and marker; returns where the extra bytes go. */
const layOut = (seeds: ReadonlyArray<Uint8Array>, extra: number, program: Uint8Array): { readonly at: number; readonly end: number } => {
  let at = 0
  for (const seed of seeds) {
    scratch.set(seed, at)
    at += seed.length
  }
  const extraAt = at
  at += extra
  scratch.set(program, at)
  at += program.length
  scratch.set(PDA_MARKER, at)
  return { at: extraAt, end: at + PDA_MARKER.length }
}

/**
 * Solana's `find_program_address` on bytes: the first bump from 255 down to 1 whose address is
 * off the curve. Writes the 32 address bytes into `out` and returns the bump. Throws RangeError
 * on seeds the runtime rejects (more than 15 besides the bump, or one longer than 32 bytes).
 */
export const findProgramAddressInto = (seeds: ReadonlyArray<Uint8Array>, program: Uint8Array, out: Uint8Array): number => {
  if (!checkSeeds(seeds, MAX_SEEDS - 1)) {
    throw new RangeError(`at most ${MAX_SEEDS - 1} seeds of at most ${MAX_SEED_LENGTH} bytes besides the bump`)
  }
  const { at, end } = layOut(seeds, 1, program)
  const input = scratch.subarray(0, end)
  for (let bump = 255; bump >= 1; bump--) {
    scratch[at] = bump
    const digest = sha256(input)
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
  const address = addressFromBytes(out)
  rememberAddressBytes(address, out)
  return [address, bump as ProgramDerivedAddressBump]
}

/** `create_program_address` (the bump is among the seeds): undefined for invalid seeds or an on-curve hash. */
export const createProgramAddress = (seeds: ReadonlyArray<Uint8Array>, program: string): Address | undefined => {
  if (!checkSeeds(seeds, MAX_SEEDS)) return undefined
  const { end } = layOut(seeds, 0, programIdBytes(program))
  const digest = sha256(scratch.subarray(0, end))
  return isOnEd25519Curve(digest) ? undefined : addressFromBytes(digest)
}

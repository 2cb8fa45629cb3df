import { createHash, randomBytes } from "node:crypto"
import { decodeBase58Exact, encodeBase58 } from "../../ntbundle/base58.ts"
import { ed25519 } from "./ed25519.ts"
import type { Seed } from "./random.ts"

/**
 * Ed25519 keypairs held by the sandbox's own actors (faucet, keeper, scenario wallets), signing
 * synchronously (see `ed25519.ts`). `secretKey` is Solana's 64-byte form: 32-byte seed, then the
 * public key (what `solana-keygen` writes and kit's `createKeyPairSignerFromBytes` reads).
 */
export interface Keypair {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly secretKey: Uint8Array
  readonly sign: (message: Uint8Array) => Uint8Array
}

export const keypairFromSeed = (seed32: Uint8Array): Keypair => {
  if (seed32.length !== 32) throw new RangeError("an ed25519 seed is 32 bytes")
  const { publicKey, sign } = ed25519.fromSeed(seed32)
  const secretKey = new Uint8Array(64)
  secretKey.set(seed32, 0)
  secretKey.set(publicKey, 32)
  return { address: encodeBase58(publicKey), publicKey, secretKey, sign }
}

/** Reads Solana's 64-byte secret key (seed then public key); rejects a mismatched public half. */
export const keypairFromSecretKey = (secretKey: Uint8Array): Keypair => {
  if (secretKey.length !== 64) throw new RangeError("a Solana secret key is 64 bytes")
  const keypair = keypairFromSeed(secretKey.subarray(0, 32))
  if (!Buffer.from(keypair.publicKey).equals(Buffer.from(secretKey.subarray(32)))) {
    throw new Error("secret key's public half does not match its seed")
  }
  return keypair
}

export const generateKeypair = (): Keypair => keypairFromSeed(new Uint8Array(randomBytes(32)))

/** The same (seed, label) always gives the same keypair: scenarios name their wallets this way. */
export const deterministicKeypair = (seed: Seed, label: string): Keypair =>
  keypairFromSeed(new Uint8Array(createHash("sha256").update(`vault-gateway/keypair/v1\0${String(seed)}\0${label}`).digest()))

export const secretKeyToBase58 = (keypair: Keypair): string => encodeBase58(keypair.secretKey)

export const verifySignature = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean =>
  ed25519.verify(publicKey, message, signature)

export const addressToBytes = (address: string): Uint8Array => {
  const bytes = decodeBase58Exact(address, 32)
  if (bytes === undefined) throw new RangeError(`not a base58 address: ${address}`)
  return bytes
}

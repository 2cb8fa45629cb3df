import { createHash, randomBytes } from "node:crypto"
import sodium from "sodium-native"
import { decodeBase58Exact, encodeBase58 } from "../../ntbundle/base58.ts"
import type { Seed } from "./random.ts"

/**
 * Ed25519 keypairs held by the sandbox's own actors (faucet, keeper, scenario wallets), signing
 * synchronously. `secretKey` is Solana's 64-byte form: 32-byte seed, then the public key (what
 * `solana-keygen` writes and kit's `createKeyPairSignerFromBytes` reads, and libsodium's own).
 *
 * libsodium rather than node:crypto: on the first start the history generation signs tens of
 * thousands of transactions on its critical path, and OpenSSL 3.0 (Node 20's) signs in 37 us where
 * libsodium takes 18 us and verifies in 59 us against 104 us (this machine). The signatures are
 * the same bytes: Ed25519 signing is deterministic.
 */
export interface Keypair {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly secretKey: Uint8Array
  readonly sign: (message: Uint8Array) => Uint8Array
}

const SIGNATURE_BYTES = 64

export const keypairFromSeed = (seed32: Uint8Array): Keypair => {
  if (seed32.length !== 32) throw new RangeError("an ed25519 seed is 32 bytes")
  const publicKey = new Uint8Array(32)
  const secretKey = new Uint8Array(64)
  sodium.crypto_sign_seed_keypair(publicKey, secretKey, seed32)
  return {
    address: encodeBase58(publicKey),
    publicKey,
    secretKey,
    sign: (message) => {
      const signature = new Uint8Array(SIGNATURE_BYTES)
      sodium.crypto_sign_detached(signature, message, secretKey)
      return signature
    }
  }
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
  publicKey.length === 32 && signature.length === SIGNATURE_BYTES && sodium.crypto_sign_verify_detached(signature, message, publicKey)

export const addressToBytes = (address: string): Uint8Array => {
  const bytes = decodeBase58Exact(address, 32)
  if (bytes === undefined) throw new RangeError(`not a base58 address: ${address}`)
  return bytes
}

import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from "node:crypto"
import { createRequire } from "node:module"
import type Sodium from "sodium-native"

/**
 * Ed25519 for the sandbox's keypairs: libsodium (sodium-native) where its prebuilt addon loads,
 * else node:crypto. Both give the same bytes (Ed25519 signing is deterministic); libsodium is the
 * faster one, and the first start's history generation signs every transaction on its critical
 * path: OpenSSL 3.0 (Node 20's) signs in 37 us and verifies in 104 us, libsodium in 18 and 59 us
 * (the development VM). The addon needs glibc 2.33 (x64, arm64 builds of sodium-native 5), which
 * some machines Node 20 runs on lack: there the sandbox stays on node:crypto.
 */
export interface Ed25519 {
  readonly name: "libsodium" | "node:crypto"
  /** The public key and a signer for a 32-byte seed. */
  readonly fromSeed: (seed32: Uint8Array) => { readonly publicKey: Uint8Array; readonly sign: (message: Uint8Array) => Uint8Array }
  /** Whether `signature` is `publicKey`'s over `message`; keys and signatures of other sizes are refused. */
  readonly verify: (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean
}

const SIGNATURE_BYTES = 64
const wellSized = (publicKey: Uint8Array, signature: Uint8Array) => publicKey.length === 32 && signature.length === SIGNATURE_BYTES

export const libsodiumEd25519 = (sodium: typeof Sodium): Ed25519 => ({
  name: "libsodium",
  fromSeed: (seed32) => {
    const publicKey = new Uint8Array(32)
    const secretKey = new Uint8Array(64)
    sodium.crypto_sign_seed_keypair(publicKey, secretKey, seed32)
    return {
      publicKey,
      sign: (message) => {
        const signature = new Uint8Array(SIGNATURE_BYTES)
        sodium.crypto_sign_detached(signature, message, secretKey)
        return signature
      }
    }
  },
  verify: (publicKey, message, signature) => wellSized(publicKey, signature) && sodium.crypto_sign_verify_detached(signature, message, publicKey)
})

const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex")
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex")
const PUBLIC_KEY_CACHE_LIMIT = 50_000

const nodeCryptoEd25519 = (): Ed25519 => {
  const publicKeyObjects = new Map<string, KeyObject>()
  const publicKeyObject = (publicKey: Uint8Array): KeyObject => {
    const cacheKey = Buffer.from(publicKey).toString("latin1")
    let keyObject = publicKeyObjects.get(cacheKey)
    if (keyObject === undefined) {
      keyObject = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: "der", type: "spki" })
      if (publicKeyObjects.size >= PUBLIC_KEY_CACHE_LIMIT) publicKeyObjects.clear()
      publicKeyObjects.set(cacheKey, keyObject)
    }
    return keyObject
  }
  return {
    name: "node:crypto",
    fromSeed: (seed32) => {
      const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed32]), format: "der", type: "pkcs8" })
      const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" })
      return { publicKey: new Uint8Array(spki.subarray(spki.length - 32)), sign: (message) => new Uint8Array(sign(null, message, privateKey)) }
    },
    verify: (publicKey, message, signature) => {
      if (!wellSized(publicKey, signature)) return false
      try {
        return verify(null, message, publicKeyObject(publicKey), signature)
      } catch {
        // not a point on the curve
        return false
      }
    }
  }
}

export const nodeEd25519: Ed25519 = nodeCryptoEd25519()

const loadLibsodium = (): Ed25519 | undefined => {
  try {
    return libsodiumEd25519(createRequire(import.meta.url)("sodium-native") as typeof Sodium)
  } catch {
    return undefined
  }
}

export const ed25519: Ed25519 = loadLibsodium() ?? nodeEd25519

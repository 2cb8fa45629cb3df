import { createHash, randomBytes } from "node:crypto"
import type { Cluster } from "../../config.ts"

/**
 * Partner API key text: `<environment prefix><32 random base62 chars><6 base62 checksum chars>`,
 * e.g. `vg_sandbox_…`. 32 base62 characters carry ~190 bits. The checksum (the first 32 bits of
 * SHA-256 over prefix and random part) lets secret scanners tell a real key from a look-alike
 * without a database; the gateway itself identifies keys by their SHA-256 hash only.
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const RANDOM_LENGTH = 32
const CHECKSUM_LENGTH = 6

export const KEY_PREFIXES: Readonly<Record<Cluster, string>> = {
  sandbox: "vg_sandbox_",
  devnet: "vg_devnet_",
  mainnet: "vg_prod_"
}

const BY_PREFIX: ReadonlyArray<readonly [string, Cluster]> = Object.entries(KEY_PREFIXES).map(
  ([cluster, prefix]) => [prefix, cluster as Cluster] as const
)

/** The environment a key's prefix names, whatever follows it; undefined when no known prefix. */
export const environmentOfKey = (key: string): Cluster | undefined => {
  for (const [prefix, cluster] of BY_PREFIX) if (key.startsWith(prefix)) return cluster
  return undefined
}

/** Uniform base62 characters by rejection sampling (248 = 4 * 62; bytes above it are skipped). */
const randomBase62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62]
    }
  }
  return out
}

const toBase62 = (value: number, width: number): string => {
  let out = ""
  for (let rest = value; out.length < width; rest = Math.floor(rest / 62)) out = ALPHABET[rest % 62] + out
  return out
}

export const checksumOf = (prefixAndRandom: string): string =>
  toBase62(createHash("sha256").update(prefixAndRandom).digest().readUInt32BE(0), CHECKSUM_LENGTH)

/** A new key for the environment. */
export const generateApiKey = (environment: Cluster): string => {
  const body = KEY_PREFIXES[environment] + randomBase62(RANDOM_LENGTH)
  return body + checksumOf(body)
}

/** Whether the text has the generated shape and its checksum matches (what a secret scanner checks). */
export const hasValidChecksum = (key: string): boolean => {
  const environment = environmentOfKey(key)
  if (environment === undefined) return false
  const prefix = KEY_PREFIXES[environment]
  if (key.length !== prefix.length + RANDOM_LENGTH + CHECKSUM_LENGTH) return false
  if (!/^[0-9A-Za-z]+$/.test(key.slice(prefix.length))) return false
  const body = key.slice(0, -CHECKSUM_LENGTH)
  return checksumOf(body) === key.slice(-CHECKSUM_LENGTH)
}

/** The only form of a key the gateway stores or looks up: hex SHA-256 of the whole text. */
export const hashApiKey = (key: string): string => createHash("sha256").update(key).digest("hex")

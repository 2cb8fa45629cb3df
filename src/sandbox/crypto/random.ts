import { createHash } from "node:crypto"

/**
 * Seeded pseudo-random numbers (sfc32: small, fast, good statistical quality; not for secrets).
 * The same (seed, stream) always yields the same sequence, so scenarios and faults are
 * reproducible from the sandbox seed. `fork(label)` gives an independent stream that does not
 * shift when another stream draws more or fewer numbers.
 */
export interface Random {
  /** Uniform integer in [0, 2^32). */
  readonly nextU32: () => number
  /** Uniform float in [0, 1). */
  readonly nextFloat: () => number
  /** Uniform integer in [min, max] (inclusive; both safe integers). */
  readonly int: (min: number, max: number) => number
  /** Uniform bigint in [0, bound) for bound > 0. */
  readonly bigintBelow: (bound: bigint) => bigint
  /** True with the given probability. */
  readonly chance: (probability: number) => boolean
  readonly pick: <T>(items: ReadonlyArray<T>) => T
  readonly bytes: (length: number) => Uint8Array
  readonly fork: (label: string) => Random
}

export type Seed = string | number | bigint

const seedWords = (seed: Seed, stream: string): Uint32Array => {
  const digest = createHash("sha256").update(`vault-gateway/random/v1\0${String(seed)}\0${stream}`).digest()
  return new Uint32Array(digest.buffer.slice(digest.byteOffset, digest.byteOffset + 16))
}

export const createRandom = (seed: Seed, stream = ""): Random => {
  const words = seedWords(seed, stream)
  let a = words[0]!
  let b = words[1]!
  let c = words[2]!
  let counter = words[3]!
  const nextU32 = (): number => {
    const t = (((a + b) >>> 0) + counter) >>> 0
    counter = (counter + 1) >>> 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) >>> 0
    c = ((c << 21) | (c >>> 11)) >>> 0
    c = (c + t) >>> 0
    return t
  }
  for (let warmUp = 0; warmUp < 12; warmUp++) nextU32()

  const nextFloat = (): number => (nextU32() * 2 ** 21 + (nextU32() >>> 11)) / 2 ** 53
  const int = (min: number, max: number): number => min + Math.floor(nextFloat() * (max - min + 1))
  const bigintBelow = (bound: bigint): bigint => {
    if (bound <= 0n) throw new RangeError("bigintBelow needs a positive bound")
    const bits = bound.toString(2).length
    const words = Math.ceil(bits / 32)
    for (;;) {
      let value = 0n
      for (let index = 0; index < words; index++) value = (value << 32n) | BigInt(nextU32())
      value &= (1n << BigInt(bits)) - 1n
      if (value < bound) return value
    }
  }
  const bytes = (length: number): Uint8Array => {
    const out = new Uint8Array(length)
    for (let index = 0; index < length; index += 4) {
      const word = nextU32()
      for (let shift = 0; shift < 4 && index + shift < length; shift++) out[index + shift] = (word >>> (shift * 8)) & 0xff
    }
    return out
  }
  return {
    nextU32,
    nextFloat,
    int,
    bigintBelow,
    chance: (probability) => nextFloat() < probability,
    pick: (items) => {
      if (items.length === 0) throw new RangeError("pick from an empty list")
      return items[int(0, items.length - 1)]!
    },
    bytes,
    fork: (label) => createRandom(seed, `${stream}/${label}`)
  }
}

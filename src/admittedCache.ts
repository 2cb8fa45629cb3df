import { GenerationalCache } from "./generationalCache.ts"

/** Bits of the record of keys seen once: 2^21 (256 KB), two per key. */
const SEEN_BITS_LOG2 = 21

/** FNV-1a over the key's UTF-16 code units. */
const hashOf = (key: string): number => {
  let hash = 0x811c9dc5
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193)
  return hash >>> 0
}

/**
 * A bounded memo for keys most of which are seen once (a public build's new wallet and its
 * addresses): a key enters the long-lived cache only when it comes back after leaving a small
 * cache of recent keys. Before, every new wallet's entries lived on in a cache of 50,000 to
 * 100,000, long enough to be moved to V8's old generation and to die there: at 2,000 builds/s of
 * new wallets the server ran a full collection every few seconds, each stopping it for 30-60 ms,
 * which was the paced build tail. Keys seen once are now only remembered as two bits, so their
 * entries die young; keys that come back (a vault, a mint, a wallet building again) are kept.
 */
export class AdmittedCache<V> {
  private readonly recent: GenerationalCache<string, V>
  private readonly kept: GenerationalCache<string, V>
  private readonly seen = new Uint32Array(1 << (SEEN_BITS_LOG2 - 5))
  private seenSinceClear = 0

  constructor(
    private readonly capacity: number,
    recentCapacity = 1_024
  ) {
    this.recent = new GenerationalCache(recentCapacity)
    this.kept = new GenerationalCache(capacity)
  }

  get(key: string): V | undefined {
    const kept = this.kept.get(key)
    return kept !== undefined ? kept : this.recent.get(key)
  }

  set(key: string, value: V): void {
    if (this.seenBefore(key)) this.kept.set(key, value)
    else this.recent.set(key, value)
  }

  getOrCompute(key: string, compute: () => V): V {
    const cached = this.get(key)
    if (cached !== undefined) return cached
    const value = compute()
    this.set(key, value)
    return value
  }

  /** Whether the key was recorded since the last clear (rarely wrongly yes); records it if not. */
  private seenBefore(key: string): boolean {
    const hash = hashOf(key)
    const first = hash >>> (32 - SEEN_BITS_LOG2)
    const second = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b) >>> (32 - SEEN_BITS_LOG2)
    const seen = this.seen
    if ((seen[first >>> 5]! & (1 << (first & 31))) !== 0 && (seen[second >>> 5]! & (1 << (second & 31))) !== 0) return true
    seen[first >>> 5]! |= 1 << (first & 31)
    seen[second >>> 5]! |= 1 << (second & 31)
    // bounded like the cache: with as many keys as it holds, about 1% of new keys look seen
    if (++this.seenSinceClear >= this.capacity) {
      seen.fill(0)
      this.seenSinceClear = 0
    }
    return false
  }
}

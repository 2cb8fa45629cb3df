/**
 * SHA-256 hashes of presented keys, remembered for keys whose record the cache holds as found, so
 * that a request with a cached key computes no hash (the largest cost of the middleware's fast
 * path). Only such keys are remembered, never arbitrary text a client sends, at most `max`; all are
 * forgotten when it is full. Holding a key's text here is no new exposure: the process reads it
 * from every request anyway, and a key→hash pair stays right after a revocation (the record cache
 * decides validity).
 */
export class KnownKeyHashes {
  readonly #hashes = new Map<string, string>()

  constructor(private readonly max = 10_000) {}

  /** The remembered hash of `key`, or undefined. */
  remembered(key: string): string | undefined {
    return this.#hashes.get(key)
  }

  remember(key: string, hash: string): void {
    if (this.#hashes.size >= this.max) this.#hashes.clear()
    this.#hashes.set(key, hash)
  }
}

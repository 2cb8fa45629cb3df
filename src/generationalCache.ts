/**
 * A bounded memo: a hit in the old generation is promoted, and a full young generation becomes the
 * old one, dropping the previous whole (an LRU's eviction walks its Map, slow under churn). Holds
 * `capacity / 2` to `capacity` entries once warm.
 */
export class GenerationalCache<K, V> {
  private young = new Map<K, V>()
  private old = new Map<K, V>()
  private readonly generationSize: number

  constructor(capacity: number) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2))
  }

  get(key: K): V | undefined {
    const young = this.young.get(key)
    if (young !== undefined) return young
    const old = this.old.get(key)
    if (old !== undefined) this.set(key, old)
    return old
  }

  getOrCompute(key: K, compute: () => V): V {
    const cached = this.get(key)
    if (cached !== undefined) return cached
    const value = compute()
    this.set(key, value)
    return value
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.generationSize) {
      this.old = this.young
      this.young = new Map()
    }
    this.young.set(key, value)
  }
}

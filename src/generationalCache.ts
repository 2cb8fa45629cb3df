/**
 * A bounded memo with O(1) operations: entries live in a young and an old generation; a hit in the
 * old one is promoted, and when the young one fills up it becomes the old one (the previous old
 * generation is dropped whole). Unlike an LRU on one Map, eviction never walks the Map, whose
 * deleted slots make `keys().next()` slow on large maps with churn. Holds between `capacity / 2`
 * and `capacity` entries once warm.
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

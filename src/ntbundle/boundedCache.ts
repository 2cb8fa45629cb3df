/**
 * A least-recently-used map with a fixed capacity. Map iteration order is insertion order, so a hit
 * re-inserts its key and eviction drops the first key.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>()

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  set(key: K, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next()
      if (oldest.done !== true) this.entries.delete(oldest.value)
    }
  }

  getOrCompute(key: K, compute: () => V): V {
    const cached = this.get(key)
    if (cached !== undefined) return cached
    const value = compute()
    this.set(key, value)
    return value
  }

  get size(): number {
    return this.entries.size
  }

  clear(): void {
    this.entries.clear()
  }
}

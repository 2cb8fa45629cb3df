/** Per (builder wallet, vault): the bound users (sorted) and the sum of their shares, kept incrementally. */
export interface Cohort {
  readonly users: SortedSet
  shares: bigint
}

/** Chunks split above this many members; a chunk edit moves at most this many references. */
const CHUNK_MAX = 1_024

/** The first index in the sorted `items` whose value is greater than (or equal to, unless `strict`) `key`. */
const lowerBound = (items: ReadonlyArray<string>, key: string, strict: boolean): number => {
  let low = 0
  let high = items.length
  while (low < high) {
    const middle = (low + high) >>> 1
    const value = items[middle]!
    if (value < key || (strict && value === key)) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * A set of strings kept in ascending order as a list of sorted chunks: add, delete and has cost
 * O(log n + chunk), and reading k members after a key costs O(log n + k), so a cohort page never
 * sorts (or even visits) the whole cohort.
 */
export class SortedSet implements Iterable<string> {
  readonly #chunks: Array<Array<string>> = []
  #size = 0

  get size(): number {
    return this.#size
  }

  /** The chunk that holds `key` if present (or where it belongs): the first whose last member >= key. */
  #chunkFor(key: string): number {
    let low = 0
    let high = this.#chunks.length
    while (low < high) {
      const middle = (low + high) >>> 1
      const chunk = this.#chunks[middle]!
      if (chunk[chunk.length - 1]! < key) low = middle + 1
      else high = middle
    }
    return low
  }

  has(key: string): boolean {
    const chunk = this.#chunks[this.#chunkFor(key)]
    if (chunk === undefined) return false
    return chunk[lowerBound(chunk, key, false)] === key
  }

  add(key: string): this {
    if (this.#chunks.length === 0) {
      this.#chunks.push([key])
      this.#size = 1
      return this
    }
    const at = Math.min(this.#chunkFor(key), this.#chunks.length - 1)
    const chunk = this.#chunks[at]!
    const index = lowerBound(chunk, key, false)
    if (chunk[index] === key) return this
    chunk.splice(index, 0, key)
    this.#size++
    if (chunk.length > CHUNK_MAX) this.#chunks.splice(at + 1, 0, chunk.splice(chunk.length >>> 1))
    return this
  }

  delete(key: string): boolean {
    const at = this.#chunkFor(key)
    const chunk = this.#chunks[at]
    if (chunk === undefined) return false
    const index = lowerBound(chunk, key, false)
    if (chunk[index] !== key) return false
    chunk.splice(index, 1)
    this.#size--
    if (chunk.length === 0) this.#chunks.splice(at, 1)
    return true
  }

  /** Members strictly greater than `key` (all of them for null), ascending. */
  *after(key: string | null): Generator<string> {
    let at = key === null ? 0 : this.#chunkFor(key)
    let index = key === null ? 0 : lowerBound(this.#chunks[at] ?? [], key, true)
    for (; at < this.#chunks.length; at++, index = 0) {
      const chunk = this.#chunks[at]!
      for (; index < chunk.length; index++) yield chunk[index]!
    }
  }

  [Symbol.iterator](): Iterator<string> {
    return this.after(null)
  }
}

/** A two-level map `outer -> inner -> value`, creating levels on demand and dropping empty ones. */
export class NestedMap<V> {
  readonly #outer = new Map<string, Map<string, V>>()

  get(outer: string, inner: string): V | undefined {
    return this.#outer.get(outer)?.get(inner)
  }

  getOrCreate(outer: string, inner: string, create: () => V): V {
    let level = this.#outer.get(outer)
    if (level === undefined) this.#outer.set(outer, (level = new Map()))
    let value = level.get(inner)
    if (value === undefined) level.set(inner, (value = create()))
    return value
  }

  delete(outer: string, inner: string): void {
    const level = this.#outer.get(outer)
    if (level === undefined) return
    level.delete(inner)
    if (level.size === 0) this.#outer.delete(outer)
  }

  entries(outer: string): ReadonlyMap<string, V> {
    return this.#outer.get(outer) ?? EMPTY
  }

  outerKeys(): IterableIterator<string> {
    return this.#outer.keys()
  }
}

const EMPTY: ReadonlyMap<string, never> = new Map<string, never>()

/**
 * `key -> set of members` that drops empty sets. Most keys (a wallet's positions) have exactly one
 * member, which is kept without a Set: a million positions would otherwise cost a million Sets.
 */
export class SetIndex {
  readonly #members = new Map<string, string | Set<string>>()

  add(key: string, member: string): void {
    const current = this.#members.get(key)
    if (current === undefined) this.#members.set(key, member)
    else if (typeof current === "string") {
      if (current !== member) this.#members.set(key, new Set([current, member]))
    } else current.add(member)
  }

  remove(key: string, member: string): void {
    const current = this.#members.get(key)
    if (current === undefined) return
    if (typeof current === "string") {
      if (current === member) this.#members.delete(key)
      return
    }
    current.delete(member)
    if (current.size === 1) this.#members.set(key, current.values().next().value!)
  }

  get(key: string): ReadonlySet<string> {
    const current = this.#members.get(key)
    if (current === undefined) return EMPTY_SET
    return typeof current === "string" ? new Set([current]) : current
  }

  get size(): number {
    return this.#members.size
  }
}

const EMPTY_SET: ReadonlySet<string> = new Set<string>()

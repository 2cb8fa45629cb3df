/** Per (referrer, vault): the bound positions (sorted by address) and the sum of their shares, kept incrementally. */
export interface Cohort {
  readonly positions: SortedSet
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

/** Removed members stay in their chunk, marked, until this many marks pile up. */
const TOMBSTONE_LIMIT = 256
/** Up to this many new members are inserted one by one when read; more are sorted and merged in one pass. */
const SMALL_MERGE = 64

/**
 * A set of strings that reads in ascending order: membership is a Set (add, delete, has in O(1), as
 * the projection re-indexes a position on every update of it), and the order is a list of sorted
 * chunks brought up to date when read: new members are merged in (one by one when few, else sorted
 * and merged in one pass, as after a restore), removed ones stay marked in their chunk until
 * TOMBSTONE_LIMIT marks pile up. Reading k members after a key then costs O(log n + k) (plus the
 * pending merge), so a cohort page never sorts, or even visits, the whole cohort.
 */
export class SortedSet implements Iterable<string> {
  #chunks: Array<Array<string>> = []
  readonly #members = new Set<string>()
  /** Members not in a chunk yet. */
  readonly #pending = new Set<string>()
  /** Chunk entries that are no longer members. */
  readonly #removed = new Set<string>()

  get size(): number {
    return this.#members.size
  }

  has(key: string): boolean {
    return this.#members.has(key)
  }

  add(key: string): this {
    if (this.#members.has(key)) return this
    this.#members.add(key)
    if (!this.#removed.delete(key)) this.#pending.add(key)
    return this
  }

  delete(key: string): boolean {
    if (!this.#members.delete(key)) return false
    if (!this.#pending.delete(key)) {
      this.#removed.add(key)
      if (this.#removed.size >= TOMBSTONE_LIMIT) this.#compact()
    }
    return true
  }

  /** The chunk that holds `key` if present (or where it belongs): the first whose last entry >= key. */
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

  #compact(): void {
    for (const key of this.#removed) {
      const at = this.#chunkFor(key)
      const chunk = this.#chunks[at]!
      chunk.splice(lowerBound(chunk, key, false), 1)
      if (chunk.length === 0) this.#chunks.splice(at, 1)
    }
    this.#removed.clear()
  }

  #insert(key: string): void {
    if (this.#chunks.length === 0) {
      this.#chunks.push([key])
      return
    }
    const at = Math.min(this.#chunkFor(key), this.#chunks.length - 1)
    const chunk = this.#chunks[at]!
    chunk.splice(lowerBound(chunk, key, false), 0, key)
    if (chunk.length > CHUNK_MAX) this.#chunks.splice(at + 1, 0, chunk.splice(chunk.length >>> 1))
  }

  /** Brings the chunks up to date with the members added since the last read. */
  #settle(): void {
    if (this.#pending.size === 0) return
    if (this.#pending.size <= SMALL_MERGE) {
      for (const key of this.#pending) this.#insert(key)
    } else {
      const added = [...this.#pending].sort()
      const chunks: Array<Array<string>> = []
      let current: Array<string> = []
      const push = (key: string) => {
        current.push(key)
        if (current.length === CHUNK_MAX >>> 1) {
          chunks.push(current)
          current = []
        }
      }
      let next = 0
      for (const chunk of this.#chunks) {
        for (const key of chunk) {
          while (next < added.length && added[next]! < key) push(added[next++]!)
          push(key)
        }
      }
      while (next < added.length) push(added[next++]!)
      if (current.length > 0) chunks.push(current)
      this.#chunks = chunks
    }
    this.#pending.clear()
  }

  /** Members strictly greater than `key` (all of them for null), ascending. */
  *after(key: string | null): Generator<string> {
    this.#settle()
    let at = key === null ? 0 : this.#chunkFor(key)
    let index = key === null ? 0 : lowerBound(this.#chunks[at] ?? [], key, true)
    for (; at < this.#chunks.length; at++, index = 0) {
      const chunk = this.#chunks[at]!
      for (; index < chunk.length; index++) {
        const member = chunk[index]!
        if (!this.#removed.has(member)) yield member
      }
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

/** Per (builder wallet, vault): the bound users and the sum of their shares, kept incrementally. */
export interface Cohort {
  readonly users: Set<string>
  shares: bigint
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

/** `key -> Set<member>` that drops empty sets. */
export class SetIndex {
  readonly #sets = new Map<string, Set<string>>()

  add(key: string, member: string): void {
    let set = this.#sets.get(key)
    if (set === undefined) this.#sets.set(key, (set = new Set()))
    set.add(member)
  }

  remove(key: string, member: string): void {
    const set = this.#sets.get(key)
    if (set === undefined) return
    set.delete(member)
    if (set.size === 0) this.#sets.delete(key)
  }

  get(key: string): ReadonlySet<string> {
    return this.#sets.get(key) ?? EMPTY_SET
  }
}

const EMPTY_SET: ReadonlySet<string> = new Set<string>()

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

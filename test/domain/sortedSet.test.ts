import { describe, expect, it } from "@effect/vitest"
import { SortedSet } from "../../src/domain/projection/indexes.ts"

/** A deterministic PRNG (mulberry32), so a failure replays. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

describe("SortedSet", () => {
  it("matches a sorted reference under random adds and deletes (pending merges, tombstones, chunk splits)", () => {
    const random = prng(42)
    const set = new SortedSet()
    const reference = new Set<string>()
    const key = () => Math.floor(random() * 6_000).toString(36).padStart(3, "0")
    for (let step = 0; step < 30_000; step++) {
      const k = key()
      if (random() < 0.65) {
        set.add(k)
        reference.add(k)
      } else {
        expect(set.delete(k)).toBe(reference.delete(k))
      }
      // frequent small reads merge a few new members one by one; the rare full checks merge thousands at once
      if (step % 37 === 0 && step % 5_000 < 2_000) {
        const from = key()
        const expected = [...reference].filter((value) => value > from).sort().slice(0, 3)
        const actual: Array<string> = []
        for (const value of set.after(from)) {
          if (actual.length === 3) break
          actual.push(value)
        }
        expect(actual).toEqual(expected)
      }
      if (step % 5_000 === 4_999) {
        const sorted = [...reference].sort()
        expect([...set]).toEqual(sorted)
        expect(set.size).toBe(sorted.length)
        for (let probe = 0; probe < 50; probe++) {
          const from = key()
          expect(set.has(from)).toBe(reference.has(from))
          const expected = sorted.filter((value) => value > from).slice(0, 7)
          const actual: Array<string> = []
          for (const value of set.after(from)) {
            if (actual.length === 7) break
            actual.push(value)
          }
          expect(actual).toEqual(expected)
        }
      }
    }
    expect(set.size).toBeGreaterThan(2_048) // enough members to have split chunks
  })

  it("a member deleted and added back, or added and deleted before any read, reads once or not at all", () => {
    const set = new SortedSet()
    for (const value of ["c", "a", "e"]) set.add(value)
    expect([...set]).toEqual(["a", "c", "e"])
    set.delete("c")
    set.add("c")
    set.add("b")
    set.delete("b")
    set.delete("e")
    expect(set.has("e")).toBe(false)
    expect(set.size).toBe(2)
    expect([...set]).toEqual(["a", "c"])
    set.add("e")
    expect([...set.after("a")]).toEqual(["c", "e"])
    // more deletes than the tombstone limit, then everything back
    const many = Array.from({ length: 600 }, (_, i) => `k${String(i).padStart(4, "0")}`)
    for (const value of many) set.add(value)
    expect([...set].length).toBe(603)
    for (const value of many) set.delete(value)
    expect([...set]).toEqual(["a", "c", "e"])
    for (const value of many.slice(0, 10)) set.add(value)
    expect([...set]).toEqual(["a", "c", "e", ...many.slice(0, 10)].sort())
  })

  it("after() from a key past the end, before the start, or on an empty set", () => {
    const set = new SortedSet()
    expect([...set.after(null)]).toEqual([])
    expect([...set.after("m")]).toEqual([])
    for (const value of ["d", "b", "f", "b"]) set.add(value)
    expect([...set.after(null)]).toEqual(["b", "d", "f"])
    expect([...set.after("a")]).toEqual(["b", "d", "f"])
    expect([...set.after("b")]).toEqual(["d", "f"])
    expect([...set.after("c")]).toEqual(["d", "f"])
    expect([...set.after("f")]).toEqual([])
    expect(set.delete("x")).toBe(false)
    expect(set.delete("b")).toBe(true)
    expect(set.has("b")).toBe(false)
    expect(set.size).toBe(2)
  })
})

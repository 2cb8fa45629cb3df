import { describe, expect, it } from "@effect/vitest"
import { AdmittedCache } from "../src/admittedCache.ts"

/** A cache and a counter of how often each key was computed. */
const counted = (capacity: number, recentCapacity: number) => {
  const cache = new AdmittedCache<string>(capacity, recentCapacity)
  const computed = new Map<string, number>()
  const get = (key: string) =>
    cache.getOrCompute(key, () => {
      computed.set(key, (computed.get(key) ?? 0) + 1)
      return `value of ${key}`
    })
  return { cache, computed, get }
}

describe("AdmittedCache", () => {
  it("answers a key used again at once from its recent keys (one computation per request's uses)", () => {
    const { computed, get } = counted(1_000, 8)
    expect(get("wallet-a")).toBe("value of wallet-a")
    expect(get("wallet-a")).toBe("value of wallet-a")
    expect(computed.get("wallet-a")).toBe(1)
  })

  it("keeps a key that comes back after leaving the recent keys, however many keys are seen once meanwhile", () => {
    const { computed, get } = counted(1_000, 8)
    get("vault")
    for (let i = 0; i < 20; i++) get(`once-${i}`) // "vault" leaves the recent keys
    get("vault") // seen before: kept from now on
    expect(computed.get("vault")).toBe(2)
    for (let i = 20; i < 5_000; i++) get(`once-${i}`) // five times the capacity of one-off keys
    get("vault")
    expect(computed.get("vault")).toBe(2)
  })

  it("does not keep keys seen once: they leave with the recent keys", () => {
    const { computed, get } = counted(1_000, 8)
    for (let i = 0; i < 100; i++) get(`wallet-${i}`)
    for (let i = 0; i < 20; i++) get(`other-${i}`) // the last wallets leave the recent keys too
    // each wallet comes back: recomputed (it was not kept), and kept from then on
    for (let i = 0; i < 100; i++) get(`wallet-${i}`)
    for (let i = 0; i < 100; i++) get(`wallet-${i}`)
    expect(Array.from({ length: 100 }, (_, i) => computed.get(`wallet-${i}`))).toEqual(Array.from({ length: 100 }, () => 2))
  })

  it("caches false and empty values like any other", () => {
    const cache = new AdmittedCache<boolean>(100, 8)
    let computed = 0
    const onCurve = (key: string) => cache.getOrCompute(key, () => (computed++, false))
    expect(onCurve("off-curve")).toBe(false)
    expect(onCurve("off-curve")).toBe(false)
    expect(computed).toBe(1)
  })

  it("forgets what it saw once after as many new keys as it holds, so the record stays bounded", () => {
    const { computed, get } = counted(100, 8)
    get("early")
    for (let i = 0; i < 150; i++) get(`once-${i}`) // the record of seen keys is cleared after 100
    get("early") // looks new again: recomputed, not kept
    for (let i = 150; i < 170; i++) get(`once-${i}`)
    get("early") // now seen before: recomputed and kept
    get("early")
    expect(computed.get("early")).toBe(3)
  })
})

import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Option, Redacted } from "effect"
import { defaultLeaseSettings, makeQuotaLeases } from "../../src/limits/quotaLeases.ts"
import { limitsAreShared } from "../../src/limits/sharedLimitsConfig.ts"

/** A store whose commits the test answers by hand, in order. */
const manualStore = () => {
  const commits: Array<{ units: number; answer: (exit: Exit.Exit<number, unknown>) => void }> = []
  let shared = 0
  const failures: Array<string> = []
  let now = 1_000_000_000_000
  const leases = makeQuotaLeases({
    commit: (_bucket, _start, _end, units) => Effect.succeed(units),
    run: (effect, onExit) => {
      const units = Effect.runSync(effect as Effect.Effect<number>)
      commits.push({ units, answer: onExit })
    },
    settings: { ...defaultLeaseSettings, maxLeaseShare: 0.1 },
    now: () => now,
    onStoreFailure: (bucket) => failures.push(bucket)
  })
  const answerNext = (others = 0) => {
    const commit = commits.shift()!
    shared += others + commit.units
    commit.answer(Exit.succeed(shared))
  }
  return { leases, commits, answerNext, failures, advance: (ms: number) => (now += ms), at: () => now }
}

const quota = { limit: 100, windowSeconds: 3600 }

describe("quota leases", () => {
  // limit 100, 10 %: the largest lease is 10
  it("accepts ahead of the store up to the lease; a request waits only when the lease is used and its commit is in flight", () => {
    const { leases, commits, answerNext, at } = manualStore()
    for (let i = 0; i < 10; i++) expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
    // half the lease used: committed in the background, the other half still accepted at once
    expect(commits.map((c) => c.units)).toEqual([5])
    expect(leases.consumeNow("k", quota, at())).toBeUndefined()
    answerNext()
    expect(leases.inspect("k")).toMatchObject({ lease: 10, knownUsed: 5, uncommitted: 5 })
    // the rest went out at once; one more fits
    expect(commits.map((c) => c.units)).toEqual([5])
    expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
  })

  it("refuses once the shared count plus the uncommitted requests reach the limit; never before", () => {
    const { leases, answerNext, at } = manualStore()
    expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
    leases.flush()
    // other instances used 98 meanwhile
    answerNext(98)
    expect(leases.inspect("k")?.knownUsed).toBe(99)
    expect(leases.consumeNow("k", quota, at())).toMatchObject({ allowed: true, remaining: 0 })
    const refused = leases.consumeNow("k", quota, at())
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 100 })
    expect(refused!.retryAfterSeconds).toBeGreaterThanOrEqual(1)
  })

  it.effect("consume waits for the commit in flight, then decides", () =>
    Effect.gen(function*() {
      const { leases, answerNext, at } = manualStore()
      for (let i = 0; i < 10; i++) expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
      const waiting = yield* Effect.fork(leases.consume("k", quota))
      yield* Effect.yieldNow()
      expect(Option.isNone(yield* Fiber.poll(waiting))).toBe(true)
      answerNext()
      expect((yield* Fiber.join(waiting)).allowed).toBe(true)
    }))

  it("a failed commit: the bucket is counted here alone against the whole limit until its window ends, then shared again", () => {
    const { leases, commits, failures, advance, at } = manualStore()
    for (let i = 0; i < 5; i++) leases.consumeNow("k", quota, at())
    commits.shift()!.answer(Exit.fail(new Error("connection refused")))
    expect(failures).toEqual(["k"])
    let accepted = 5
    for (let i = 0; i < 200; i++) if (leases.consumeNow("k", quota, at())?.allowed === true) accepted++
    expect(accepted).toBe(100)
    leases.flush()
    expect(commits).toHaveLength(0)
    advance(3_600_000)
    expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
    expect(leases.inspect("k")?.localOnly).toBe(false)
    leases.flush()
    expect(commits).toHaveLength(1)
  })

  it("the lease follows the traffic (about half a second of it, doubled after a wait) and never exceeds its share of the limit", () => {
    const big = { limit: 1_000_000, windowSeconds: 3600 }
    const { leases, commits, answerNext, advance, at } = manualStore()
    expect(leases.inspect("k")).toBeUndefined()
    leases.consumeNow("k", big, at())
    expect(leases.inspect("k")?.lease).toBe(100_000)
    // slow traffic: 10 requests in a second -> a lease of 5
    for (let i = 0; i < 9; i++) leases.consumeNow("k", big, at())
    advance(1_000)
    leases.flush()
    answerNext()
    expect(leases.inspect("k")?.lease).toBe(5)
    // a burst: the lease is used while its commit is in flight; the next one is sized to the burst
    while (leases.consumeNow("k", big, at()) !== undefined);
    expect(commits).toHaveLength(1)
    advance(10)
    answerNext()
    expect(leases.inspect("k")?.lease).toBe(250)
    // the same on a limit of 100: at most 10
    const capped = manualStore()
    for (let i = 0; i < 10; i++) capped.leases.consumeNow("k", quota, capped.at())
    capped.advance(1)
    capped.answerNext()
    expect(capped.leases.inspect("k")?.lease).toBe(10)
  })
})

describe("SHARED_LIMITS", () => {
  const url = Option.some(Redacted.make("postgres://u:p@db:5432/x"))
  it("auto: shared with DATABASE_URL, in memory with the embedded database; true and false force it", () => {
    expect(limitsAreShared({ setting: "auto", leasePercent: 1 }, url)).toBe(true)
    expect(limitsAreShared({ setting: "auto", leasePercent: 1 }, Option.none())).toBe(false)
    expect(limitsAreShared({ setting: "true", leasePercent: 1 }, Option.none())).toBe(true)
    expect(limitsAreShared({ setting: "false", leasePercent: 1 }, url)).toBe(false)
  })
})

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
  it("accepts ahead of the store up to the lease; a request waits only when the lease is used and its commit is in flight", () => {
    const { leases, commits, answerNext, at } = manualStore()
    // lease 1 at first: the first request is accepted at once and committed
    expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
    expect(commits.map((c) => c.units)).toEqual([1])
    // the next must wait for that commit; the lease grows for the next time
    expect(leases.consumeNow("k", quota, at())).toBeUndefined()
    answerNext()
    expect(leases.inspect("k")).toMatchObject({ lease: 2, knownUsed: 1, uncommitted: 0 })
    expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
    expect(commits.map((c) => c.units)).toEqual([1])
  })

  it("refuses once the shared count plus the uncommitted requests reach the limit; never before", () => {
    const { leases, answerNext, at } = manualStore()
    expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
    // other instances used 98 meanwhile
    answerNext(98)
    expect(leases.inspect("k")?.knownUsed).toBe(99)
    const last = leases.consumeNow("k", quota, at())
    expect(last).toMatchObject({ allowed: true, remaining: 0 })
    const refused = leases.consumeNow("k", quota, at())
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 100 })
    expect(refused!.retryAfterSeconds).toBeGreaterThanOrEqual(1)
  })

  it.effect("consume waits for the commit in flight, then decides", () =>
    Effect.gen(function*() {
      const { leases, answerNext, at } = manualStore()
      expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
      const waiting = yield* Effect.fork(leases.consume("k", quota))
      yield* Effect.yieldNow()
      expect(Option.isNone(yield* Fiber.poll(waiting))).toBe(true)
      answerNext()
      expect((yield* Fiber.join(waiting)).allowed).toBe(true)
    }))

  it("a failed commit: the bucket is counted here alone against the whole limit until its window ends, then shared again", () => {
    const { leases, commits, failures, advance, at } = manualStore()
    expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
    commits.shift()!.answer(Exit.fail(new Error("connection refused")))
    expect(failures).toEqual(["k"])
    let accepted = 1
    for (let i = 0; i < 200; i++) if (leases.consumeNow("k", quota, at())?.allowed === true) accepted++
    expect(accepted).toBe(100)
    expect(commits).toHaveLength(0)
    advance(3_600_000)
    expect(leases.consumeNow("k", quota, at())?.allowed).toBe(true)
    expect(leases.inspect("k")?.localOnly).toBe(false)
    expect(commits).toHaveLength(1)
  })

  it("the lease never exceeds its share of the limit, and halves when it lasts long", () => {
    const { leases, commits, answerNext, advance, at } = manualStore()
    for (let round = 0; round < 12; round++) {
      while (leases.consumeNow("k", { limit: 1_000_000, windowSeconds: 3600 }, at()) !== undefined);
      answerNext()
    }
    expect(leases.inspect("k")?.lease).toBe(4_096)
    const capped = manualStore()
    for (let round = 0; round < 12; round++) {
      while (capped.leases.consumeNow("k", quota, capped.at()) !== undefined);
      capped.answerNext()
    }
    expect(capped.leases.inspect("k")?.lease).toBe(10)
    // a lease that lasted 3 s: halved
    while (commits.length > 0) answerNext()
    while (commits.length === 0) expect(leases.consumeNow("k", { limit: 1_000_000, windowSeconds: 3600 }, at())?.allowed).toBe(true)
    advance(3_000)
    answerNext()
    expect(leases.inspect("k")?.lease).toBe(2_048)
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

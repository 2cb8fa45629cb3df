import { Effect, type Exit } from "effect"
import type { Quota, RateLimitDecision } from "../../services/RateLimiter.ts"
import { countRefusal } from "../telemetry/rateLimitRefusals.ts"

/**
 * Adds `units` requests accepted here to the shared count of (bucket, window) and answers the
 * shared count after the addition (every instance's units included).
 */
export type CommitUnits = (bucket: string, windowStart: number, windowEnd: number, units: number) => Effect.Effect<number, unknown>

export interface LeaseSettings {
  /** The largest lease as a share of the limit: at most max(1, floor(limit × maxLeaseShare)) units. */
  readonly maxLeaseShare: number
  /** A commit slower than this counts as failed. */
  readonly commitTimeoutMs: number
  /** The lease is sized to about this much of the bucket's traffic on this instance. */
  readonly leaseMs: number
}

export const defaultLeaseSettings: LeaseSettings = { maxLeaseShare: 0.01, commitTimeoutMs: 2_000, leaseMs: 500 }

/** Runs a commit in the background and calls back with its exit. */
export type RunCommit = (commit: Effect.Effect<number, unknown>, onExit: (exit: Exit.Exit<number, unknown>) => void) => void

interface Bucket {
  windowStart: number
  windowEnd: number
  /** The shared count as last read (this instance's committed units included). */
  knownUsed: number
  /** Accepted here, not yet sent. */
  pending: number
  /** Sent in the commit in flight. */
  inFlight: number
  committing: boolean
  /** Requests this instance may accept ahead of the shared count: `pending + inFlight` stays below it. */
  lease: number
  /** `maxLeaseOf` the bucket's limit, as last seen. */
  maxLease: number
  /** A request waited for the commit in flight: the next lease is at least twice this one. */
  waited: boolean
  /** When the last commit ended (or the window started). */
  lastCommitAt: number
  /** The shared count could not be reached during this window: counted here alone until it ends. */
  localOnly: boolean
  waiters: Array<() => void>
}

/** Above this many buckets, finished windows are dropped on the next window change. */
const SWEEP_ABOVE = 10_000

export const maxLeaseOf = (limit: number, settings: LeaseSettings): number => Math.max(1, Math.floor(limit * settings.maxLeaseShare))

/**
 * Fixed-window counting shared by several instances through a store, with a local lease: each
 * instance accepts up to `lease` requests ahead of the shared count and adds them to it in the
 * background (a commit starts once half the lease is used, and `flush` commits whatever is left),
 * so a request waits for the store only when the whole lease is used and its commit is still in
 * flight. The lease adapts: a new bucket starts with the largest, `maxLeaseOf(limit)`; after each
 * commit it is sized to about `leaseMs` of the bucket's traffic here, at least doubled when a
 * request had to wait, never above `maxLeaseOf(limit)`.
 *
 * A request is refused when the shared count as last read plus this instance's uncommitted requests
 * reach the limit. The shared count only grows within a window, so at a refusal at least `limit`
 * requests were accepted in the window (nobody is refused early); every instance accepts at most
 * its lease beyond what the store has counted, so at most `limit - 1 + instances × maxLease` are
 * accepted in a window. When the store fails or is slower than `commitTimeoutMs`, the bucket is
 * counted here alone against the whole limit until its window ends (what one instance does today).
 */
export const makeQuotaLeases = (options: {
  readonly commit: CommitUnits
  readonly run: RunCommit
  readonly settings: LeaseSettings
  readonly now: () => number
  readonly onStoreFailure: (bucket: string, cause: unknown) => void
}) => {
  const { commit, run, settings, now } = options
  const buckets = new Map<string, Bucket>()

  const sweep = (at: number) => {
    for (const [name, bucket] of buckets) if (bucket.windowEnd <= at && !bucket.committing) buckets.delete(name)
  }

  const startCommit = (name: string, bucket: Bucket) => {
    const units = bucket.pending
    const windowStart = bucket.windowStart
    bucket.pending = 0
    bucket.inFlight = units
    bucket.committing = true
    run(
      commit(name, windowStart, bucket.windowEnd, units).pipe(Effect.timeoutFail({ duration: settings.commitTimeoutMs, onTimeout: () => new Error(`no answer in ${settings.commitTimeoutMs} ms`) })),
      (exit) => {
        bucket.committing = false
        const waited = bucket.waited
        bucket.waited = false
        if (bucket.windowStart === windowStart) {
          if (exit._tag === "Success") bucket.knownUsed = Math.max(bucket.knownUsed, exit.value)
          else {
            if (!bucket.localOnly) options.onStoreFailure(name, exit.cause)
            bucket.localOnly = true
            bucket.knownUsed += bucket.inFlight
          }
          const at = now()
          // this instance's rate since the last commit ended: what it accepted then, over the time
          const rate = (bucket.inFlight + bucket.pending) / Math.max(1, at - bucket.lastCommitAt)
          const sized = Math.max(Math.ceil(rate * settings.leaseMs), waited ? bucket.lease * 2 : 1)
          bucket.lease = Math.min(bucket.maxLease, sized)
          bucket.inFlight = 0
          bucket.lastCommitAt = at
          if (!bucket.localOnly && bucket.pending > 0 && bucket.pending >= Math.ceil(bucket.lease / 2)) startCommit(name, bucket)
        }
        const waiters = bucket.waiters
        bucket.waiters = []
        for (const wake of waiters) wake()
      }
    )
  }

  const bucketAt = (name: string, windowMs: number, maxLease: number, at: number): Bucket => {
    const windowStart = Math.floor(at / windowMs) * windowMs
    let bucket = buckets.get(name)
    if (bucket === undefined) {
      if (buckets.size > SWEEP_ABOVE) sweep(at)
      bucket = {
        windowStart, windowEnd: windowStart + windowMs, knownUsed: 0, pending: 0, inFlight: 0, committing: false,
        lease: maxLease, maxLease, waited: false, lastCommitAt: at, localOnly: false, waiters: []
      }
      buckets.set(name, bucket)
    } else if (bucket.windowStart !== windowStart) {
      // A new window: requests not yet sent belonged to the old one and are dropped with it. A commit
      // still in flight for the old window finishes there.
      if (buckets.size > SWEEP_ABOVE) sweep(at)
      bucket.windowStart = windowStart
      bucket.windowEnd = windowStart + windowMs
      bucket.knownUsed = 0
      bucket.pending = 0
      bucket.inFlight = 0
      bucket.localOnly = false
      bucket.lastCommitAt = at
    }
    return bucket
  }

  const decision = (bucket: Bucket, limit: number, at: number, allowed: boolean, used: number): RateLimitDecision => ({
    allowed,
    limit,
    remaining: Math.max(0, limit - used),
    reset: Math.ceil(bucket.windowEnd / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((bucket.windowEnd - at) / 1000))
  })

  /** Counts one request at `at` when it can be decided without waiting; undefined when it must wait for a commit. */
  const decide = (name: string, quota: Quota, at: number): RateLimitDecision | undefined => {
    const limit = quota.limit
    const maxLease = maxLeaseOf(limit, settings)
    const bucket = bucketAt(name, quota.windowSeconds * 1000, maxLease, at)
    bucket.maxLease = maxLease
    if (bucket.lease > maxLease) bucket.lease = maxLease
    const uncommitted = bucket.pending + bucket.inFlight
    if (bucket.knownUsed + uncommitted >= limit) {
      countRefusal(name)
      return decision(bucket, limit, at, false, limit)
    }
    if (!bucket.localOnly && uncommitted >= bucket.lease) {
      if (!bucket.committing) startCommit(name, bucket)
      else bucket.waited = true
      return undefined
    }
    bucket.pending++
    if (!bucket.localOnly && !bucket.committing && bucket.pending >= Math.ceil(bucket.lease / 2)) startCommit(name, bucket)
    return decision(bucket, limit, at, true, bucket.knownUsed + uncommitted + 1)
  }

  /** Resolves once the bucket's commit in flight is over (registered now, so none is missed). */
  const commitOver = (name: string): Effect.Effect<void> => {
    const bucket = buckets.get(name)!
    let over = false
    let resume: (() => void) | null = null
    bucket.waiters.push(() => {
      over = true
      resume?.()
    })
    return Effect.async<void>((callback) => {
      if (over) return callback(Effect.void)
      resume = () => callback(Effect.void)
    })
  }

  const consume = (name: string, quota: Quota): Effect.Effect<RateLimitDecision> =>
    Effect.suspend(() => {
      const decided = decide(name, quota, now())
      return decided !== undefined ? Effect.succeed(decided) : Effect.zipRight(commitOver(name), consume(name, quota))
    })

  /** Commits what every bucket accepted and has not sent yet (run periodically: keeps the shared counts fresh). */
  const flush = (): void => {
    for (const [name, bucket] of buckets) {
      if (bucket.pending > 0 && !bucket.committing && !bucket.localOnly) startCommit(name, bucket)
    }
  }

  return {
    flush,
    consumeNow: (name: string, quota: Quota, nowMillis: number) => decide(name, quota, nowMillis),
    consume,
    /** What a bucket holds now (tests). */
    inspect: (name: string) => {
      const bucket = buckets.get(name)
      return bucket === undefined ? undefined : { lease: bucket.lease, knownUsed: bucket.knownUsed, uncommitted: bucket.pending + bucket.inFlight, localOnly: bucket.localOnly }
    }
  }
}

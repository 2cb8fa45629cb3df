import { Effect, Schedule, type Scope, Stream } from "effect"
import type { Invalidation, PartnerKeyRecord } from "../../services/PartnerKeys.ts"

export interface KeyRecordCacheOptions {
  /** How long a found record is trusted without news from Postgres (≤ 30 s: the revocation bound). */
  readonly ttlMs: number
  /** How long an unknown hash is remembered as unknown. */
  readonly negativeTtlMs: number
  /** Unknown hashes remembered at most (anyone can send random keys). */
  readonly maxNegative?: number
}

interface Entry {
  readonly record: PartnerKeyRecord | null
  readonly until: number
}

export interface KeyRecordCache<E> {
  /** The record (null: known to be unknown) from memory, or from Postgres on a miss. */
  readonly lookup: (hash: string) => Effect.Effect<PartnerKeyRecord | null, E>
  /** What memory alone says at `now`: the record, null when known unknown, undefined on a miss. */
  readonly peek: (hash: string, now: number) => PartnerKeyRecord | null | undefined
}

/**
 * Key records by key hash, in memory. A hit costs no I/O; a miss reads Postgres once and is cached
 * (unknown hashes briefly). Entries expire after a short TTL, and `invalidations` (Postgres NOTIFY
 * from every instance's revoke and rotate) drop them at once. Nothing is cached while the listener
 * is not live (at start-up, or while it reconnects), so no revocation can be missed; whenever it
 * (re)starts, everything is dropped. Start-up does not wait for it (the event loop may be busy
 * generating the sandbox chain).
 */
export const makeKeyRecordCache = <E, E2>(
  find: (hash: string) => Effect.Effect<PartnerKeyRecord | null, E>,
  invalidations: Stream.Stream<Invalidation, E2>,
  options: KeyRecordCacheOptions
): Effect.Effect<KeyRecordCache<E>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const known = new Map<string, Entry>()
    const unknown = new Map<string, Entry>()
    const maxNegative = options.maxNegative ?? 10_000
    // Bumped by every invalidation: a lookup that raced one does not store what it read.
    let epoch = 0
    const invalidate = (hash: string) => {
      epoch++
      known.delete(hash)
      unknown.delete(hash)
    }
    const clear = () => {
      epoch++
      known.clear()
      unknown.clear()
    }

    let live = false
    yield* Stream.runForEach(invalidations, (change) =>
      Effect.sync(() => {
        if (change._tag === "Changed") return invalidate(change.hash)
        clear()
        live = true
      })).pipe(
      Effect.tapError((error) => Effect.logWarning("partner key invalidation listener failed; reconnecting", error)),
      Effect.ensuring(Effect.sync(() => {
        live = false
        clear()
      })),
      Effect.retry(Schedule.spaced("1 second")),
      Effect.forkScoped
    )

    const store = (hash: string, record: PartnerKeyRecord | null, now: number) => {
      if (record !== null) {
        known.set(hash, { record, until: now + options.ttlMs })
        return
      }
      if (unknown.size >= maxNegative) unknown.clear()
      unknown.set(hash, { record: null, until: now + options.negativeTtlMs })
    }

    const peek = (hash: string, now: number) => {
      const hit = known.get(hash) ?? unknown.get(hash)
      return hit !== undefined && hit.until > now ? hit.record : undefined
    }

    const lookup = (hash: string) =>
      Effect.suspend(() => {
        const hit = peek(hash, Date.now())
        if (hit !== undefined) return Effect.succeed(hit)
        const startedAt = epoch
        return Effect.tap(find(hash), (record) =>
          Effect.sync(() => {
            if (live && epoch === startedAt) store(hash, record, Date.now())
          }))
      })
    return { lookup, peek }
  })

import { SqlClient } from "@effect/sql"
import { Cause, Duration, Effect, Either, Fiber, Layer, Option, Schedule, Stream } from "effect"
import { HistoryBackfill } from "../../services/HistoryBackfill.ts"
import { whenLeader } from "../../services/Leadership.ts"
import { IngestionProgress, type RollupReport } from "../../services/IngestionProgress.ts"
import { Prices } from "../../services/Prices.ts"
import { Projection } from "../../services/Projection.ts"
import { ClosePriceBook } from "../../src/domain/history/closePrices.ts"
import { HistoryReplay } from "../../src/domain/history/historyReplay.ts"
import { MetricsBook, type MetricsHistoryRecord, type VaultAtClose } from "../../src/domain/history/metricsHistory.ts"
import type { DayRows } from "../../src/domain/history/referrerDailyRow.ts"
import { utcDayEnd } from "../../src/domain/history/utcDay.ts"
import { bindRollupChain, checkpointChain, ensureRollupState, eventsPage, type LogPosition, storedThrough, writeDays } from "./dailyRollupSql.ts"
import { type ClosePriceRecord, metricsRecordedThrough } from "./metricsHistorySql.ts"
import { NO_TAGS, rollupClosedDay } from "../../src/telemetry/instruments.ts"

export interface DailyRollupOptions {
  /** How often the rollup looks for new events and crossed midnights (default 5 s). */
  readonly interval?: Duration.DurationInput
  /** Events read per query (default 5,000). */
  readonly pageSize?: number
  /**
   * How often the provisional rows of the day in progress are rewritten (default 30 s; every
   * builder and vault has one, so not on every tick). Each says the chain time it covers.
   */
  readonly provisionalEvery?: Duration.DurationInput
  /**
   * A day's close gets the last price observed that was published at most this long before its
   * midnight (default 600 s); without one its USD values stay null.
   */
  readonly closePriceMaxAgeSeconds?: number
}

const BACKFILL_POLL = Duration.millis(200)

/** Completed days written per transaction while catching up (each day: every vault and builder). */
const DAYS_PER_WRITE = 20

/**
 * The history rollup (DESIGN §2): closes the daily vault and builder rows. Once the projection is
 * live and the history backfill is done (the event log is then complete), it replays the event log
 * in chain order from the start, storing every day not stored yet (so days filled in by the
 * backfill close at start-up); then, every `interval`, it applies the new events and closes each UTC
 * day the stored chain time has passed; every `provisionalEvery` it refreshes the provisional rows
 * of the day in progress.
 * A completed day is written once, atomically for all vaults and builders, with each vault's
 * metrics as computed at that close (never recomputed later) and the deposit assets' prices observed
 * at that midnight (sampled every tick from `Prices`, when provided). Days that ended before the
 * gateway first served live, or were closed before metrics were recorded, get their metrics computed
 * once from their stored data, marked `backfill`, and no price. On a failure it logs, waits and
 * starts over from a fresh replay.
 */
export const DailyRollupLive = (options: DailyRollupOptions = {}) =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const projection = yield* Projection
      const backfill = yield* HistoryBackfill
      const progress = yield* Effect.serviceOption(IngestionProgress)
      const prices = yield* Effect.serviceOption(Prices)
      // Outlives a session's retry: prices seen before a failure still belong to their day.
      const priceBook = new ClosePriceBook(options.closePriceMaxAgeSeconds ?? 600)
      const report = (state: RollupReport["state"], closedThrough: string | null) => {
        if (Option.isSome(progress)) progress.value.reportRollup({ state, closedThrough })
      }
      const interval = Duration.decode(options.interval ?? Duration.seconds(5))
      const pageSize = options.pageSize ?? 5_000
      const provisionalEveryMs = Duration.toMillis(Duration.decode(options.provisionalEvery ?? Duration.seconds(30)))

      const firstLive = projection.statusChanges.pipe(Stream.filter((status) => status.status === "live"), Stream.runHead)
      // Polled often (reading a Ref): the history is served only once the replay after it has run.
      const backfillDone = backfill.progress.pipe(
        Effect.repeat({ until: (progress) => progress.state === "done", schedule: Schedule.spaced(Duration.min(interval, BACKFILL_POLL)) })
      )

      /**
       * Each vault's fee schedule, decimals and mint as the projection holds them now; while it is not
       * live (restoring, degraded), as it held them when it last was.
       */
      let lastVaults: ReadonlyMap<string, VaultAtClose> = new Map()
      const vaultsNow = (): ReadonlyMap<string, VaultAtClose> => {
        lastVaults = Either.getOrElse(
          projection.readSync((state) => {
            const vaults = new Map<string, VaultAtClose>()
            for (const [address, view] of state.vaults) {
              vaults.set(address, {
                fees: { managementFeeBps: view.bundle.managementFeeBps, performanceFeeBps: view.bundle.performanceFee },
                decimals: view.bundle.assetDecimals,
                mint: view.bundle.assetAddress
              })
            }
            return vaults
          }),
          () => lastVaults
        )
        return lastVaults
      }
      const samplePrices = () => {
        if (Option.isNone(prices)) return
        const mints = new Set([...vaultsNow().values()].map((vault) => vault.mint))
        for (const mint of mints) {
          const price = prices.value.priceOf(mint)
          if (price !== null) priceBook.observe(mint, price)
        }
      }

      const session = Effect.gen(function*() {
        report("waiting", null)
        const live = yield* firstLive
        const liveAt = Option.flatMap(live, (status) => Option.fromNullable(status.asOf?.blockTime))
        const liveSince = Option.getOrElse(liveAt, () => Math.floor(Date.now() / 1000))
        yield* ensureRollupState(sql, liveSince)
        yield* backfillDone
        let chain = yield* checkpointChain(sql)
        while (chain === null) {
          yield* Effect.sleep(interval)
          chain = yield* checkpointChain(sql)
        }
        const { dropped, state } = yield* bindRollupChain(sql, chain, liveSince)
        if (dropped) yield* Effect.logWarning("history rollup: the event log now belongs to another chain; dropped the daily rows closed from the old one")
        const replay = new HistoryReplay(state.liveSince)
        let after: LogPosition | null = null
        let closedThrough = state.closedThrough
        let pending: Array<DayRows> = []
        let provisionalWrittenAt = Number.NEGATIVE_INFINITY
        const metricsBook = new MetricsBook()
        const metricsThrough = yield* metricsRecordedThrough(sql)
        let pendingMetrics: Array<MetricsHistoryRecord> = []
        let pendingPrices: Array<ClosePriceRecord> = []
        let metricsDays = 0

        /** Days the replay closed (`now`: the chain time they are closed at). */
        const collect = (days: ReadonlyArray<DayRows>, now: number) => {
          if (days.length === 0) return
          const vaults = vaultsNow()
          for (const day of days) {
            metricsBook.addDay(day)
            const closing = closedThrough === null || day.date > closedThrough
            if (!closing && metricsThrough !== null && day.date <= metricsThrough) continue
            // Seen closing while following the chain, or rebuilt afterwards from stored data.
            const atClose = closing && utcDayEnd(day.date) > state.liveSince
            const usdAtClose = (mint: string) => (atClose ? priceBook.atClose(mint, day.date)?.usd ?? null : null)
            pendingMetrics.push(...metricsBook.rowsOf(day, {
              vaultOf: (vault) => vaults.get(vault) ?? null,
              usdAtClose,
              derivation: atClose ? "atClose" : "backfill",
              computedAt: now
            }))
            metricsDays += 1
            if (!closing) continue
            pending.push(day)
            if (!atClose) continue
            for (const mint of new Set([...vaults.values()].map((vault) => vault.mint))) {
              const price = priceBook.atClose(mint, day.date)
              if (price !== null) pendingPrices.push({ mint, date: day.date, price })
            }
          }
        }
        const flush = (provisional: DayRows | null, coveredThrough: number | null) =>
          Effect.gen(function*() {
            const days = pending
            const records = { metrics: pendingMetrics, prices: pendingPrices }
            pending = []
            pendingMetrics = []
            pendingPrices = []
            metricsDays = 0
            yield* writeDays(sql, days, provisional, coveredThrough, records)
            if (days.length > 0) {
              closedThrough = days[days.length - 1]!.date
              report("live", closedThrough)
              rollupClosedDay.unsafeUpdate(Date.parse(`${closedThrough}T00:00:00Z`) / 1000, NO_TAGS)
            }
          })

        const tick = Effect.gen(function*() {
          const below = yield* storedThrough(sql)
          samplePrices()
          if (below === null) return
          // The next page is read while this one is replayed: the database and this process work at once.
          let reading = yield* Effect.fork(eventsPage(sql, after, below, pageSize))
          for (;;) {
            const events = yield* Fiber.join(reading)
            const last = events[events.length - 1]
            if (last !== undefined) after = { slot: last.slot, signature: last.signature, eventIndex: last.eventIndex }
            const more = events.length === pageSize
            if (more) reading = yield* Effect.fork(eventsPage(sql, after, below, pageSize))
            for (const event of events) collect(replay.apply(event), below)
            if (pending.length >= DAYS_PER_WRITE || metricsDays >= DAYS_PER_WRITE) yield* flush(null, null)
            if (!more) break
          }
          collect(replay.closeBefore(below), below)
          // A day that closed gets the next day's provisional rows at once (they replace nothing stale).
          if (pending.length > 0 || metricsDays > 0 || Date.now() - provisionalWrittenAt >= provisionalEveryMs) {
            provisionalWrittenAt = Date.now()
            yield* flush(replay.provisional(below), below)
          }
        }).pipe(Effect.withSpan("DailyRollup.tick"))

        yield* Effect.logInfo(`history rollup: replaying the event log (days stored through ${closedThrough ?? "none"})`)
        report("replaying", closedThrough)
        yield* tick
        if (replay.matchedByAmount > 0) yield* Effect.logInfo(`history rollup: ${replay.matchedByAmount} allocations or redemptions had no stored owner and were matched by their amounts`)
        if (replay.unattributed > 0) yield* Effect.logWarning(`history rollup: ${replay.unattributed} allocations or redemptions matched no position, e.g. ${replay.unattributedSamples.join("; ")}`)
        yield* Effect.logInfo(`history rollup: live, days stored through ${closedThrough ?? "none"}`)
        report("live", closedThrough)
        return yield* tick.pipe(Effect.repeat(Schedule.spaced(interval)))
      })

      // only the leader closes days; a new leader starts from a fresh replay of the event log
      yield* Effect.forkScoped(
        whenLeader(session.pipe(
          Effect.tapErrorCause((cause) => Cause.isInterruptedOnly(cause) ? Effect.void : Effect.zipRight(Effect.sync(() => report("failed", null)), Effect.logError("history rollup failed; starting over", cause))),
          Effect.retry(Schedule.spaced(interval))
        )).pipe(Effect.catchAllCause((cause) => Effect.logError("history rollup stopped", cause)))
      )
    })
  )

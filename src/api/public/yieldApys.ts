import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Effect } from "effect"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { dailyCloses, type DailyRow } from "../../domain/history/dailyRow.ts"
import { type FeeSchedule, yieldMetrics } from "../../domain/history/yieldMetrics.ts"

export interface YieldApys {
  readonly apy7dAfterFees: number | null
  readonly apy30dAfterFees: number | null
  readonly apyInceptionAfterFees: number | null
}

/** Enough daily rows for any real vault's inception figure. */
const ALL_HISTORY = 100_000
/**
 * History that does not reach the last completed day yet (the daily rollup has not closed it, or
 * the backfill is still running) is recomputed after this rather than kept for the whole day.
 */
export const INCOMPLETE_HISTORY_TTL_MS = 60_000

/** The after-fee APYs of `/v2/vault/{a}/metrics` (same rows, same methodology). */
export const apysFromRows = (rows: ReadonlyArray<DailyRow>, fees: FeeSchedule): YieldApys => {
  const metrics = yieldMetrics(dailyCloses(rows), fees)
  return {
    apy7dAfterFees: metrics.apy7dAfterFees,
    apy30dAfterFees: metrics.apy30dAfterFees,
    apyInceptionAfterFees: metrics.apyInceptionAfterFees
  }
}

interface Entry {
  /** Through date and fee schedule the figures were computed for. */
  readonly key: string
  readonly apys: Effect.Effect<YieldApys, SqlError>
  /** Null: good until the key changes (the next completed day, or a fee change). */
  readonly expiresAtMs: number | null
}

/**
 * Per-vault APYs for `/public/yields`, read from the vault's daily history at most once per
 * completed UTC day (and fee schedule): the daily rows only change when a day completes. Concurrent
 * requests share one computation; a failed one is forgotten so the next request tries again.
 */
export const makeYieldApys = Effect.gen(function*() {
  const history = yield* VaultHistory
  const entries = new Map<string, Entry>()

  const compute = (vault: string, throughDate: string, fees: FeeSchedule, key: string) =>
    Effect.gen(function*() {
      const rows = yield* history.dailyRows({ vault, from: null, to: throughDate, after: null, limit: ALL_HISTORY })
      const apys = apysFromRows(rows, fees)
      if (rows[rows.length - 1]?.date !== throughDate) {
        const now = yield* Clock.currentTimeMillis
        const entry = entries.get(vault)
        if (entry?.key === key) entries.set(vault, { ...entry, expiresAtMs: now + INCOMPLETE_HISTORY_TTL_MS })
      }
      return apys
    }).pipe(Effect.withSpan("YieldApys.compute", { attributes: { vault, throughDate } }))

  const of = (vault: string, throughDate: string, fees: FeeSchedule): Effect.Effect<YieldApys, SqlError> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const key = `${throughDate}|${fees.managementFeeBps}|${fees.performanceFeeBps}`
      const cached = entries.get(vault)
      if (cached !== undefined && cached.key === key && (cached.expiresAtMs === null || cached.expiresAtMs > now)) return cached.apys
      // memoized without a suspension between the lookup and the store: one computation per key
      const apys = Effect.runSync(Effect.cached(compute(vault, throughDate, fees, key)))
      const entry: Entry = { key, apys, expiresAtMs: null }
      entries.set(vault, entry)
      return Effect.tapError(apys, () => Effect.sync(() => entries.get(vault) === entry && entries.delete(vault)))
    })

  return { of }
})

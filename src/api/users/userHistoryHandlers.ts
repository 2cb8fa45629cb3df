import { Config, Effect, Either, Option, Redacted } from "effect"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { UserActivity } from "../../../services/UserActivity.ts"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { ProjectionUnavailable } from "../../domain/errors.ts"
import { addUtcDays, utcDayEnd, utcDayOf, utcDayStart } from "../../domain/history/utcDay.ts"
import type { VaultView } from "../../domain/projection/state.ts"
import { activityOf } from "../../domain/userHistory/activityItem.ts"
import { holdingAfter, holdingValue, positionDays, windowEarnings } from "../../domain/userHistory/positionDays.ts"
import type { LogKey } from "../../domain/userHistory/userEvent.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { sharePrice } from "../../ntbundle/math.ts"
import { BadRequest, NotFound } from "../errors.ts"
import { makeCursorCodec } from "../history/cursor.ts"
import { requireStoredThrough } from "../history/historyPending.ts"
import { lastCompletedDay } from "../history/utcDate.ts"
import { readEither } from "../readProjection.ts"
import type { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import { findVault, stateAsOf } from "../vaults/vaultPath.ts"
import { toActivityEntry } from "./activity.ts"
import { earningsTotals, toVaultEarnings } from "./earnings.ts"
import { findPosition } from "./positionOf.ts"
import { toPositionDayRow } from "./positionHistory.ts"

const DEFAULT_ACTIVITY_LIMIT = 50
const DEFAULT_HISTORY_LIMIT = 30
/** Events read before a day to know the position's holding then (one request between two share reports). */
const OPENING_EVENTS = 16
const BACKFILL_RETRY_SECONDS = 10

interface DateFilter {
  readonly startDate?: string | undefined
  readonly endDate?: string | undefined
}

const checkDates = (params: DateFilter) =>
  params.startDate !== undefined && params.endDate !== undefined && params.startDate > params.endDate
    ? Effect.fail(new BadRequest({ code: "INVALID_QUERY", message: `startDate ${params.startDate} is after endDate ${params.endDate}` }))
    : Effect.void

const minDate = (...dates: ReadonlyArray<string | undefined | null>) => dates.filter((d): d is string => typeof d === "string").sort()[0]!
const maxDate = (...dates: ReadonlyArray<string | undefined | null>) => dates.filter((d): d is string => typeof d === "string").sort().pop()!

/**
 * The handlers of a wallet's activity feed, position history and earnings (facts §10.8), from the
 * event log (`UserActivity`), the vault's daily closes (`VaultHistory`) and the projection.
 */
export const userHistoryHandlers = Effect.gen(function*() {
  const projection = yield* Projection
  const prices = yield* Prices
  const activityLog = yield* Effect.serviceOption(UserActivity)
  const vaultHistory = yield* Effect.serviceOption(VaultHistory)
  const storedThrough = yield* requireStoredThrough
  const secret = yield* Config.option(Config.redacted("CURSOR_SECRET")).pipe(Effect.orDie)
  const cursors = makeCursorCodec(
    Option.match(secret, { onNone: () => undefined, onSome: (value) => Buffer.from(Redacted.value(value)) })
  )

  /** The event log, once the history backfill has loaded it whole (503 before: never a partial feed). */
  const completeLog = Effect.gen(function*() {
    if (Option.isNone(activityLog)) return yield* Effect.fail(ProjectionUnavailable.because("history_unavailable", 30))
    const complete = yield* Effect.orDie(activityLog.value.complete)
    if (!complete) return yield* Effect.fail(ProjectionUnavailable.because("backfilling_history", BACKFILL_RETRY_SECONDS))
    return activityLog.value
  })

  const closingPrices = (vault: string, from: string, to: string) =>
    Option.isNone(vaultHistory) || to < from
      ? Effect.succeed(new Map<string, bigint | null>())
      : Effect.map(
        Effect.orDie(vaultHistory.value.dailyRows({ vault, from, to, after: null, limit: 100_000 })),
        (rows) => new Map(rows.map((row) => [row.date, row.closingSharePrice]))
      )

  /** The position's days from..to (oldest first); the day after throughDate priced at the projection's current price. */
  const daysOf = (view: VaultView, wallet: string, from: string, to: string, throughDate: string) =>
    Effect.gen(function*() {
      const log = yield* completeLog
      const vault = view.address
      const closedTo = minDate(to, throughDate)
      if (from <= closedTo) yield* storedThrough(closedTo)
      const recent = yield* Effect.orDie(log.before({ vault, wallet, before: utcDayStart(from), limit: OPENING_EVENTS }))
      const events = to < from ? [] : yield* Effect.orDie(log.window({ vault, wallet, from: utcDayStart(from), to: utcDayEnd(to) }))
      const closes = yield* closingPrices(vault, addUtcDays(from, -1), closedTo)
      const valuation = valuationOf(view)
      const current = valuation === null ? null : sharePrice(valuation)
      const priceOf = (date: string) => (date > throughDate ? current : closes.get(date) ?? null)
      const precision = 10n ** BigInt(view.bundle.assetDecimals)
      const opening = holdingAfter(vault, recent)
      const days = positionDays({ vault, from, to, opening, events, priceOf, precision })
      return { days, startValue: holdingValue(opening, priceOf(addUtcDays(from, -1)), precision) }
    })

  /** The vault, the chain position, and whether the wallet holds a position there now. */
  const positionAt = (vaultAddress: string, wallet: string) =>
    readEither(projection, (state) =>
      Either.map(findVault(state, vaultAddress), (view) => ({
        view,
        asOf: stateAsOf(state),
        exists: Either.isRight(findPosition(state, view, wallet))
      })))

  const noPosition = (wallet: string, vault: string) =>
    new NotFound({ code: "NO_POSITION", message: `wallet ${wallet} has no events in vault ${vault}` })

  const activity = (wallet: string, vault: string | null, params: DateFilter & { readonly limit?: number | undefined; readonly cursor?: string | undefined }) =>
    Effect.gen(function*() {
      yield* checkDates(params)
      const { asOf } = yield* readEither(projection, (state) =>
        vault === null ? Either.right({ asOf: stateAsOf(state) }) : Either.map(findVault(state, vault), () => ({ asOf: stateAsOf(state) })))
      const log = yield* completeLog
      const scope = JSON.stringify(["activity", wallet, vault, params.startDate ?? null, params.endDate ?? null])
      const before = params.cursor === undefined ? null : yield* decodeKey(params.cursor, scope)
      const limit = params.limit ?? DEFAULT_ACTIVITY_LIMIT
      const events = yield* Effect.orDie(log.page({
        wallet,
        vault,
        from: params.startDate === undefined ? null : utcDayStart(params.startDate),
        to: params.endDate === undefined ? null : utcDayEnd(params.endDate),
        before,
        limit: limit + 1
      }))
      const page = events.slice(0, limit)
      const decimals = yield* readEither(projection, (state) => {
        const byVault = new Map<string, number>()
        for (const event of page) {
          const item = activityOf(event)
          if (item.vault !== null && !byVault.has(item.vault)) {
            const view = Either.getOrNull(findVault(state, item.vault))
            if (view !== null) byVault.set(item.vault, view.bundle.assetDecimals)
          }
        }
        return Either.right(byVault)
      })
      const last = page[page.length - 1]
      return {
        success: true as const,
        data: {
          user: wallet as Address,
          vault: vault as Address | null,
          activity: page.map((event) => {
            const item = activityOf(event)
            return toActivityEntry(event, item, item.vault === null ? 0 : decimals.get(item.vault) ?? 0)
          }),
          nextCursor: events.length > limit && last !== undefined
            ? cursors.encode({ scope, lastDate: JSON.stringify([last.slot, last.signature, last.eventIndex]) })
            : null
        },
        asOf
      }
    })

  const decodeKey = (cursor: string, scope: string) =>
    Effect.flatMap(cursors.decode(cursor, scope), (text): Effect.Effect<LogKey, BadRequest> => {
      const [slot, signature, eventIndex] = JSON.parse(text) as [number, string, number]
      return Effect.succeed({ slot, signature, eventIndex })
    })

  const positionHistory = (
    path: { readonly vaultAddress: string; readonly wallet: string },
    params: DateFilter & { readonly limit?: number | undefined; readonly cursor?: string | undefined; readonly includePartial?: boolean | undefined }
  ) =>
    Effect.gen(function*() {
      yield* checkDates(params)
      const { view, asOf, exists } = yield* positionAt(path.vaultAddress, path.wallet)
      const log = yield* completeLog
      const span = yield* Effect.orDie(log.span({ vault: view.address, wallet: path.wallet }))
      if (span.first === null) return yield* Effect.fail(noPosition(path.wallet, view.address))
      const throughDate = lastCompletedDay(asOf.blockTime)
      const scope = JSON.stringify(["positionHistory", view.address, path.wallet, params.startDate ?? null, params.endDate ?? null, params.includePartial === true])
      const after = params.cursor === undefined ? null : yield* cursors.decode(params.cursor, scope)
      // the position's days: from its first event; through today (provisional) or the last completed
      // day while it exists, else through the day of its last event
      const lastDay = minDate(
        params.includePartial === true ? addUtcDays(throughDate, 1) : throughDate,
        exists || span.last === null ? null : utcDayOf(span.last),
        params.endDate,
        after === null ? null : addUtcDays(after, -1)
      )
      const firstDay = maxDate(utcDayOf(span.first), params.startDate)
      const limit = params.limit ?? DEFAULT_HISTORY_LIMIT
      const asset = assetOf(view)
      const page = (history: ReadonlyArray<ReturnType<typeof toPositionDayRow>>, nextCursor: string | null) => ({
        success: true as const,
        data: { bundleKey: view.address as Address, user: path.wallet as Address, asset, throughDate, history, nextCursor },
        asOf
      })
      if (lastDay < firstDay) return page([], null)
      const from = maxDate(firstDay, addUtcDays(lastDay, -(limit - 1)))
      const { days } = yield* daysOf(view, path.wallet, from, lastDay, throughDate)
      const rows = days.map((day) => toPositionDayRow(day, asset.decimals, day.date > throughDate)).reverse()
      return page(rows, from > firstDay ? cursors.encode({ scope, lastDate: from }) : null)
    })

  const startNotAfter = (params: DateFilter, throughDate: string) =>
    params.startDate !== undefined && params.startDate > throughDate
      ? Effect.fail(new BadRequest({ code: "INVALID_QUERY", message: `startDate ${params.startDate} is after the last completed day ${throughDate}` }))
      : Effect.void

  /** One position's earnings over the window; null when it has no events. */
  const earningsOf = (view: VaultView, wallet: string, params: DateFilter, throughDate: string) =>
    Effect.gen(function*() {
      yield* startNotAfter(params, throughDate)
      const log = yield* completeLog
      const span = yield* Effect.orDie(log.span({ vault: view.address, wallet }))
      if (span.first === null) return null
      const endDate = minDate(params.endDate, throughDate)
      const startDate = params.startDate ?? utcDayOf(span.first)
      const { days, startValue } = yield* daysOf(view, wallet, startDate, endDate, throughDate)
      const asset = assetOf(view)
      const usd = valuationOf(view) === null ? null : prices.priceOf(asset.mint)?.usd ?? null
      return toVaultEarnings({ vault: view.address, wallet, asset, startDate, endDate }, windowEarnings(days, startValue), usd)
    })

  const vaultEarnings = (path: { readonly vaultAddress: string; readonly wallet: string }, params: DateFilter) =>
    Effect.gen(function*() {
      yield* checkDates(params)
      const { view, asOf } = yield* positionAt(path.vaultAddress, path.wallet)
      const result = yield* earningsOf(view, path.wallet, params, lastCompletedDay(asOf.blockTime))
      if (result === null) return yield* Effect.fail(noPosition(path.wallet, view.address))
      return { success: true as const, data: result, asOf }
    })

  const walletEarnings = (wallet: string, params: DateFilter) =>
    Effect.gen(function*() {
      yield* checkDates(params)
      const log = yield* completeLog
      const vaults = yield* Effect.orDie(log.vaultsOf(wallet))
      const { views, asOf } = yield* readEither(projection, (state) =>
        Either.right({
          asOf: stateAsOf(state),
          views: vaults.flatMap((vault) => {
            const view = Either.getOrNull(findVault(state, vault))
            return view === null ? [] : [view]
          })
        }))
      const throughDate = lastCompletedDay(asOf.blockTime)
      yield* startNotAfter(params, throughDate)
      const positions = (yield* Effect.forEach(views, (view) => earningsOf(view, wallet, params, throughDate))).flatMap((p) => (p === null ? [] : [p]))
      return {
        success: true as const,
        data: {
          user: wallet as Address,
          startDate: params.startDate ?? null,
          endDate: minDate(params.endDate, throughDate),
          positions,
          totals: earningsTotals(positions, (mint) => prices.priceOf(mint)?.usd ?? null)
        },
        asOf
      }
    })

  return { activity, positionHistory, vaultEarnings, walletEarnings }
})

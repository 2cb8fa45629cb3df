import { Config, Effect, Either, Option, Redacted } from "effect"
import { Projection } from "../../../services/Projection.ts"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { type EventKey, VaultSeries } from "../../../services/VaultSeries.ts"
import { utcDayEnd, utcDayOf, utcDayStart } from "../../domain/history/utcDay.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { sharePrice } from "../../ntbundle/math.ts"
import { Api } from "../Api.ts"
import { BadRequest } from "../errors.ts"
import { implementGroup } from "../handlers.ts"
import { readEither } from "../readProjection.ts"
import type { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import { findVault, stateAsOf } from "../vaults/vaultPath.ts"
import { makeCursorCodec } from "./cursor.ts"
import { requireStoredThrough } from "./historyPending.ts"
import { toMetricsHistoryRow } from "./metricsHistoryRow.ts"
import { eventPoint, sharePriceOf, type SharePricePoint } from "./sharePriceRow.ts"
import { lastCompletedDay } from "./utcDate.ts"

const DEFAULT_LIMIT = 30

const invalidCursor = new BadRequest({
  code: "INVALID_CURSOR",
  message: "cursor: not one this server issued for this route and these filters; start again without it"
})

const eventCursor = (key: EventKey) => `${key.slot}/${key.signature}/${key.eventIndex}`
const parseEventCursor = (text: string): Either.Either<EventKey, BadRequest> => {
  const [slot, signature, index, extra] = text.split("/")
  return slot !== undefined && signature !== undefined && index !== undefined && extra === undefined && /^\d+$/.test(slot) && /^\d+$/.test(index)
    ? Either.right({ slot: Number(slot), signature, eventIndex: Number(index) })
    : Either.left(invalidCursor)
}

const checkRange = (startDate: string | undefined, endDate: string | undefined) =>
  startDate !== undefined && endDate !== undefined && startDate > endDate
    ? Effect.fail(new BadRequest({ code: "INVALID_QUERY", message: `startDate ${startDate} is after endDate ${endDate}` }))
    : Effect.void

export const VaultSeriesHandlersLive = implementGroup(
  Api,
  "vaultSeries",
  Effect.gen(function*() {
    const projection = yield* Projection
    const history = yield* VaultHistory
    const series = yield* VaultSeries
    const storedThrough = yield* requireStoredThrough
    const secret = yield* Config.option(Config.redacted("CURSOR_SECRET")).pipe(Effect.orDie)
    const cursors = makeCursorCodec(
      Option.match(secret, { onNone: () => undefined, onSome: (value) => Buffer.from(Redacted.value(value)) })
    )

    const vaultAt = (vaultAddress: string) =>
      readEither(projection, (state) => {
        const found = findVault(state, vaultAddress)
        return Either.map(found, (view) => {
          const valuation = valuationOf(view)
          return { view, asset: assetOf(view), asOf: stateAsOf(state), current: valuation === null ? null : sharePrice(valuation) }
        })
      })

    /** The window's last day (never after the last completed one), checked to be stored (spec §7: no empty list for days not stored yet). */
    const windowEnd = (startDate: string | undefined, endDate: string | undefined, throughDate: string) =>
      Effect.gen(function*() {
        const end = endDate !== undefined && endDate < throughDate ? endDate : throughDate
        if (startDate === undefined || startDate <= end) yield* storedThrough(end)
        return end
      })

    return {
      sharePrice: ({ path, urlParams }) =>
        Effect.gen(function*() {
          yield* checkRange(urlParams.startDate, urlParams.endDate)
          const { view, asset, asOf, current } = yield* vaultAt(path.vaultAddress)
          const resolution = urlParams.resolution ?? "day"
          const throughDate = lastCompletedDay(asOf.blockTime)
          const scope = JSON.stringify([view.address, "share-price", resolution, urlParams.startDate ?? null, urlParams.endDate ?? null])
          const after = urlParams.cursor === undefined ? null : yield* cursors.decode(urlParams.cursor, scope)
          const end = yield* windowEnd(urlParams.startDate, urlParams.endDate, throughDate)
          const limit = urlParams.limit ?? DEFAULT_LIMIT
          const decimals = asset.decimals
          let points: Array<SharePricePoint>
          let nextCursor: string | null
          if (resolution === "day") {
            const rows = yield* history
              .dailyRows({ vault: view.address, from: urlParams.startDate ?? null, to: end, after, limit: limit + 1 })
              .pipe(Effect.orDie)
            const page = rows.slice(0, limit)
            points = page.map((row) => ({
              date: row.date,
              sharePrice: row.closingSharePrice === null ? null : sharePriceOf(row.closingSharePrice, decimals),
              event: null
            }))
            const last = page[page.length - 1]
            nextCursor = rows.length > limit && last !== undefined ? cursors.encode({ scope, lastDate: last.date }) : null
          } else {
            const afterKey = after === null ? null : yield* parseEventCursor(after)
            const { events, more } = yield* series
              .sharePriceEvents({
                vault: view.address,
                from: urlParams.startDate === undefined ? null : utcDayStart(urlParams.startDate),
                below: urlParams.endDate === undefined ? null : utcDayEnd(urlParams.endDate),
                after: afterKey,
                limit
              })
              .pipe(Effect.orDie)
            points = events.map((event) => eventPoint(event, utcDayOf(event.blockTime), decimals))
            const last = events[events.length - 1]
            nextCursor = more && last !== undefined ? cursors.encode({ scope, lastDate: eventCursor(last) }) : null
          }
          return {
            success: true as const,
            data: {
              bundleKey: view.address as Address,
              asset,
              current: current === null ? null : sharePriceOf(current, decimals),
              resolution,
              throughDate,
              points,
              nextCursor
            },
            asOf
          }
        }),
      metricsHistory: ({ path, urlParams }) =>
        Effect.gen(function*() {
          yield* checkRange(urlParams.startDate, urlParams.endDate)
          const { view, asset, asOf } = yield* vaultAt(path.vaultAddress)
          const throughDate = lastCompletedDay(asOf.blockTime)
          const scope = JSON.stringify([view.address, "metrics-history", urlParams.startDate ?? null, urlParams.endDate ?? null])
          const after = urlParams.cursor === undefined ? null : yield* cursors.decode(urlParams.cursor, scope)
          const end = yield* windowEnd(urlParams.startDate, urlParams.endDate, throughDate)
          const limit = urlParams.limit ?? DEFAULT_LIMIT
          const rows = yield* series
            .metricsRows({ vault: view.address, from: urlParams.startDate ?? null, to: end, after, limit: limit + 1 })
            .pipe(Effect.orDie)
          const page = rows.slice(0, limit)
          const last = page[page.length - 1]
          return {
            success: true as const,
            data: {
              bundleKey: view.address as Address,
              asset,
              throughDate,
              history: page.map((row) => toMetricsHistoryRow(row, asset.decimals)),
              nextCursor: rows.length > limit && last !== undefined ? cursors.encode({ scope, lastDate: last.date }) : null
            },
            asOf
          }
        })
    }
  })
)

import { Effect, Either } from "effect"
import { cursorKey } from "../../../services/CursorSecret.ts"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { VaultSeries } from "../../../services/VaultSeries.ts"
import { dailyCloses } from "../../domain/history/dailyRow.ts"
import { yieldMetrics } from "../../domain/history/yieldMetrics.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { amount } from "../amounts.ts"
import { BadRequest } from "../errors.ts"
import { Api } from "../Api.ts"
import { implementGroup } from "../handlers.ts"
import { readEither } from "../readProjection.ts"
import type { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import { findVault, stateAsOf } from "../vaults/vaultPath.ts"
import { makeCursorCodec } from "./cursor.ts"
import { toSnapshot } from "./snapshotRow.ts"
import { requireStoredThrough } from "./historyPending.ts"
import { lastCompletedDay } from "./utcDate.ts"

const DEFAULT_LIMIT = 30
/** Enough daily rows for any real vault's inception figures. */
const ALL_HISTORY = 100_000

export const HistoryHandlersLive = implementGroup(
  Api,
  "history",
  Effect.gen(function*() {
    const projection = yield* Projection
    const history = yield* VaultHistory
    const prices = yield* Prices
    const series = yield* VaultSeries
    const storedThrough = yield* requireStoredThrough
    const cursors = makeCursorCodec(yield* cursorKey)

    /** The vault (from the live projection) and the chain position the answer reflects. */
    const vaultAt = (vaultAddress: string) =>
      readEither(projection, (state) =>
        Either.map(findVault(state, vaultAddress), (view) => ({ view, asOf: stateAsOf(state), programId: state.programId })))

    return {
      snapshots: ({ path, urlParams }) =>
        Effect.gen(function*() {
          if (urlParams.startDate !== undefined && urlParams.endDate !== undefined && urlParams.startDate > urlParams.endDate) {
            return yield* new BadRequest({ code: "INVALID_QUERY", message: `startDate ${urlParams.startDate} is after endDate ${urlParams.endDate}` })
          }
          const { view, asOf } = yield* vaultAt(path.vaultAddress)
          const throughDate = lastCompletedDay(asOf.blockTime)
          const scope = JSON.stringify([view.address, urlParams.startDate ?? null, urlParams.endDate ?? null])
          const after = urlParams.cursor === undefined ? null : yield* cursors.decode(urlParams.cursor, scope)
          const endDate = urlParams.endDate !== undefined && urlParams.endDate < throughDate ? urlParams.endDate : throughDate
          // Never an empty list for days that are only not stored yet (spec §7).
          if (urlParams.startDate === undefined || urlParams.startDate <= endDate) yield* storedThrough(endDate)
          const limit = urlParams.limit ?? DEFAULT_LIMIT
          const rows = yield* history
            .dailyRows({ vault: view.address, from: urlParams.startDate ?? null, to: endDate, after, limit: limit + 1 })
            .pipe(Effect.orDie)
          const page = rows.slice(0, limit)
          const first = page[0]
          const last = page[page.length - 1]
          const closePrices = first === undefined || last === undefined
            ? new Map()
            : yield* series.closePrices(view.bundle.assetAddress, first.date, last.date).pipe(Effect.orDie)
          return {
            success: true as const,
            data: {
              bundleKey: view.address as Address,
              throughDate,
              snapshots: page.map((row) => toSnapshot(row, view.bundle.assetDecimals, closePrices.get(row.date) ?? null)),
              nextCursor: rows.length > limit && last !== undefined ? cursors.encode({ scope, lastDate: last.date }) : null
            },
            asOf
          }
        }),
      metrics: ({ path }) =>
        Effect.gen(function*() {
          const { view, asOf } = yield* vaultAt(path.vaultAddress)
          const throughDate = lastCompletedDay(asOf.blockTime)
          yield* storedThrough(throughDate)
          const rows = yield* history
            .dailyRows({ vault: view.address, from: null, to: throughDate, after: null, limit: ALL_HISTORY })
            .pipe(Effect.orDie)
          const closes = dailyCloses(rows)
          const asset = assetOf(view)
          const valuation = valuationOf(view)
          const price = valuation === null ? null : prices.priceOf(asset.mint)
          return {
            success: true as const,
            data: {
              bundleKey: view.address as Address,
              ...yieldMetrics(closes, { managementFeeBps: view.bundle.managementFeeBps, performanceFeeBps: view.bundle.performanceFee }),
              tvl: {
                asset,
                value: valuation === null ? null : amount(valuation.totalEquity, asset.decimals, price?.usd ?? null)
              },
              computedAt: asOf.blockTime ?? Math.floor(Date.now() / 1000),
              throughDate,
              historyDays: closes.length
            },
            asOf,
            priceAsOf: price == null ? null : { slot: price.slot, blockTime: price.publishTime }
          }
        })
    }
  })
)

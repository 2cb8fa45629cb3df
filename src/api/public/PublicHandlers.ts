import { Effect } from "effect"
import { ProjectionUnavailable } from "../../domain/errors.ts"
import { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { Api } from "../Api.ts"
import { NotFound } from "../errors.ts"
import { implementGroup } from "../handlers.ts"
import { PricesSeen } from "../pricesSeen.ts"
import { stateAsOf } from "../vaults/vaultPath.ts"
import { lastCompletedDay } from "../history/utcDate.ts"
import { historyNotStored } from "../history/historyPending.ts"
import { makeYieldApys } from "./yieldApys.ts"
import { makeYieldCoverage } from "./yieldCoverage.ts"
import { yieldRows } from "./yieldRows.ts"

export const PublicHandlersLive = implementGroup(
  Api,
  "public",
  Effect.gen(function*() {
    const codes = yield* BuilderCodes
    const projection = yield* Projection
    const prices = yield* Prices
    const apys = yield* makeYieldApys
    const storedThrough = yield* makeYieldCoverage
    const historyUnavailable = new ProjectionUnavailable({
      code: "PROJECTION_UNAVAILABLE",
      status: "degraded",
      retryAfterSeconds: 5,
      message: "the vault history cannot be read; retry in 5 s"
    })
    const unknown = (code: string) => new NotFound({ code: "NOT_FOUND", message: `no enabled builder code ${code.slice(0, 64)}` })
    return {
      code: ({ path }) =>
        Effect.flatMap(codes.resolve(path.code), (resolved) =>
          resolved === null ? Effect.fail(unknown(path.code)) : Effect.succeed({ success: true as const, data: resolved })),
      // TVL per request (prices move without the projection); APYs once per completed day and vault
      yields: () =>
        Effect.gen(function*() {
          const { rows, throughDate, asOf, priceAsOf } = yield* projection.read((state) => {
            const seen = new PricesSeen(prices.priceOf)
            const rows = yieldRows(state, seen)
            return { rows, throughDate: lastCompletedDay(state.asOf?.blockTime ?? null), asOf: stateAsOf(state), priceAsOf: seen.priceAsOf }
          })
          // while the backfill runs no APY can be told apart from "history too short": 503, like /metrics
          const through = yield* storedThrough(throughDate)
          if (through === null) return yield* Effect.fail(historyNotStored(throughDate, null))
          const vaults = yield* Effect.forEach(rows, ({ row, fees }) =>
            Effect.map(apys.of(row.bundleKey, through, fees), (figures) => ({ ...row, ...figures })), { concurrency: 4 })
          return { success: true as const, data: { vaults }, asOf, priceAsOf }
        }).pipe(
          Effect.catchTag("SqlError", (error) =>
            Effect.zipRight(Effect.logWarning("yields: the vault history could not be read", error), Effect.fail(historyUnavailable)))
        )
    }
  })
)

import { Effect, Either, Option } from "effect"
import { PositionRequests } from "../../../services/PositionRequests.ts"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { ProjectionUnavailable } from "../../domain/errors.ts"
import { withdrawalRequestLogged } from "../../domain/pendingRequests.ts"
import type { ProjectionState, VaultView } from "../../domain/projection/state.ts"
import { Api } from "../Api.ts"
import { BodiesPerVersion } from "../bodiesPerVersion.ts"
import { implementGroup } from "../handlers.ts"
import { PricesSeen } from "../pricesSeen.ts"
import { readEither } from "../readProjection.ts"
import type { Address } from "../schemas.ts"
import { findVault, stateAsOf } from "../vaults/vaultPath.ts"
import { toBalance } from "./balance.ts"
import { toPending } from "./pending.ts"
import { toPortfolio } from "./portfolio.ts"
import { findPosition, type Position } from "./positionOf.ts"
import { userHistoryHandlers } from "./userHistoryHandlers.ts"
import { BalanceBody, PortfolioBody } from "./UsersApi.ts"

/** Request events read per pending request (a deposit topped up many times while pending needs them all for its gross). */
const REQUEST_EVENTS_READ = 256
/** Seconds a client waits before asking again while the history backfill runs. */
const BACKFILL_RETRY_SECONDS = 10

/** A found position and its vault: the input of a position read's body. */
interface PositionIn {
  readonly view: VaultView
  readonly position: Position
}

export const UsersHandlersLive = implementGroup(
  Api,
  "users",
  Effect.gen(function*() {
    const projection = yield* Projection
    const prices = yield* Prices
    const balances = new BodiesPerVersion(BalanceBody, (state, { position, view }: PositionIn) => {
      const seen = new PricesSeen(prices.priceOf)
      const data = toBalance(view, position, state.asOf, seen.priceOf)
      return { success: true as const, data, asOf: stateAsOf(state), priceAsOf: seen.priceAsOf }
    })
    const requestLog = yield* Effect.serviceOption(PositionRequests)
    const history = yield* userHistoryHandlers
    const portfolios = new BodiesPerVersion(PortfolioBody, (state, wallet: Address) => {
      const seen = new PricesSeen(prices.priceOf)
      const data = toPortfolio(state, wallet, seen.priceOf)
      return { success: true as const, data, asOf: stateAsOf(state), priceAsOf: seen.priceAsOf }
    })

    /** Reads one position of a vault: 400/404 for the vault, 404 NO_POSITION, else its body. */
    const positionRead = <A, E>(
      path: { readonly vaultAddress: string; readonly wallet: string },
      bodies: BodiesPerVersion<A, E, PositionIn>
    ) =>
      readEither(projection, (state) =>
        Either.flatMap(findVault(state, path.vaultAddress), (view) =>
          Either.map(findPosition(state, view, path.wallet), (position) =>
            bodies.get(state, `${view.address}/${path.wallet}`, { view, position }))))

    const findIn = (state: ProjectionState, path: { readonly vaultAddress: string; readonly wallet: string }) =>
      Either.flatMap(findVault(state, path.vaultAddress), (view) =>
        Either.map(findPosition(state, view, path.wallet), (position): PositionIn => ({ view, position })))

    /**
     * The position's stages: its account and the vault's temp data from the projection, its request
     * events from the event log (without an event log: the account alone).
     */
    const pending = (path: { readonly vaultAddress: string; readonly wallet: string }) =>
      Effect.gen(function*() {
        const { view } = yield* readEither(projection, (state) => findIn(state, path))
        const log = Option.isSome(requestLog)
          ? yield* Effect.orDie(requestLog.value.recent(view.address, path.wallet, REQUEST_EVENTS_READ))
          : { events: [], complete: true }
        const body = yield* readEither(projection, (state) =>
          Either.map(findIn(state, path), ({ position, view }) => ({
            // An open withdrawal whose request the backfill has not stored yet: its time would be a guess.
            unlogged: !log.complete && !withdrawalRequestLogged(position.account, log.events),
            body: {
              success: true as const,
              data: toPending(view, position, log.events, state.asOf?.blockTime ?? 0),
              asOf: stateAsOf(state)
            }
          })))
        if (body.unlogged) return yield* Effect.fail(ProjectionUnavailable.because("backfilling_history", BACKFILL_RETRY_SECONDS))
        return body.body
      })

    return {
      balance: ({ path }) => positionRead(path, balances),
      pending: ({ path }) => pending(path),
      portfolio: ({ path }) => projection.readSync((state) => portfolios.get(state, path.wallet, path.wallet)),
      activity: ({ path, urlParams: { vault, ...params } }) => history.activity(path.wallet, vault ?? null, params),
      vaultActivity: ({ path, urlParams }) => history.activity(path.wallet, path.vaultAddress, urlParams),
      positionHistory: ({ path, urlParams }) => history.positionHistory(path, urlParams),
      earnings: ({ path, urlParams }) => history.vaultEarnings(path, urlParams),
      walletEarnings: ({ path, urlParams }) => history.walletEarnings(path.wallet, urlParams)
    }
  })
)

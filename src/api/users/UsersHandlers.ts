import { Effect, Either } from "effect"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import type { VaultView } from "../../domain/projection/state.ts"
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
import { BalanceBody, PendingBody, PortfolioBody } from "./UsersApi.ts"

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
    const pendings = new BodiesPerVersion(PendingBody, (state, { position, view }: PositionIn) => ({
      success: true as const,
      data: toPending(view, position),
      asOf: stateAsOf(state)
    }))
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

    return {
      balance: ({ path }) => positionRead(path, balances),
      pending: ({ path }) => positionRead(path, pendings),
      portfolio: ({ path }) => projection.readSync((state) => portfolios.get(state, path.wallet, path.wallet))
    }
  })
)

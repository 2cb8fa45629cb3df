import { Effect, Either } from "effect"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import type { ProjectionState, VaultView } from "../../domain/projection/state.ts"
import { Api } from "../Api.ts"
import { bodyEncoder } from "../bodyEncoder.ts"
import { implementGroup } from "../handlers.ts"
import type { PreEncoded } from "../preEncoded.ts"
import { readEither } from "../readProjection.ts"
import { VersionedBodies } from "../versionedBodies.ts"
import { findVault, stateAsOf } from "../vaults/vaultPath.ts"
import { toBalance } from "./balance.ts"
import { toPending } from "./pending.ts"
import { toPortfolio } from "./portfolio.ts"
import { findPosition, type Position } from "./positionOf.ts"
import { BalanceBody, PendingBody, PortfolioBody } from "./UsersApi.ts"

export const UsersHandlersLive = implementGroup(
  Api,
  "users",
  Effect.gen(function*() {
    const projection = yield* Projection
    const prices = yield* Prices
    const encodeBalance = bodyEncoder(BalanceBody)
    const encodePending = bodyEncoder(PendingBody)
    const encodePortfolio = bodyEncoder(PortfolioBody)
    const balances = new VersionedBodies()
    const pendings = new VersionedBodies()
    const portfolios = new VersionedBodies()

    /** Reads one position of a vault: 400/404 for the vault, 404 NO_POSITION, else `body`. */
    const positionRead = (
      path: { readonly vaultAddress: string; readonly wallet: string },
      cache: VersionedBodies,
      body: (state: ProjectionState, view: VaultView, position: Position) => PreEncoded
    ) =>
      readEither(projection, (state) =>
        Either.flatMap(findVault(state, path.vaultAddress), (view) =>
          Either.map(findPosition(state, view, path.wallet), (position) =>
            cache.get(state, `${view.address}/${path.wallet}`, () => body(state, view, position)))))

    return {
      balance: ({ path }) =>
        positionRead(path, balances, (state, view, position) =>
          encodeBalance({ success: true, data: toBalance(view, position, state.asOf, prices.priceOf), asOf: stateAsOf(state) })),
      pending: ({ path }) =>
        positionRead(path, pendings, (state, view, position) =>
          encodePending({ success: true, data: toPending(view, position), asOf: stateAsOf(state) })),
      portfolio: ({ path }) =>
        projection.readSync((state) =>
          portfolios.get(state, path.wallet, () =>
            encodePortfolio({ success: true, data: toPortfolio(state, path.wallet, prices.priceOf), asOf: stateAsOf(state) })))
    }
  })
)

import { Effect, Either } from "effect"
import { cursorKey } from "../../../services/CursorSecret.ts"
import { type Binding, CohortEventLog } from "../../../services/CohortEventLog.ts"
import { ProjectionUnavailable } from "../../domain/errors.ts"
import { toFlow } from "./Flow.ts"
import { CohortUserPageBody, FlowPageBody, ReferrerSummaryBody } from "./ReferrersApi.ts"
import { BodiesPerVersion } from "../bodiesPerVersion.ts"
import { PreEncoded } from "../preEncoded.ts"
import { makeFlowCursors } from "./flowCursor.ts"
import { flowWindow } from "./flowWindow.ts"
import { ReferrerPayouts } from "../../../services/ReferrerPayouts.ts"
import { makePayoutCursors } from "./payoutCursor.ts"
import { makeCohortCursors } from "./cohortCursor.ts"
import { toCohortUser } from "./CohortUser.ts"
import { cohortPage } from "../../domain/reporting/cohortPage.ts"
import { NotFound } from "../errors.ts"
import { toPayout } from "./Payout.ts"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { referrerVaults } from "../../domain/reporting/referrerVaults.ts"
import { Api } from "../Api.ts"
import { implementGroup } from "../handlers.ts"
import { PricesSeen } from "../pricesSeen.ts"
import { AuthenticatedPartner } from "../security/PartnerKey.ts"
import type { Address } from "../schemas.ts"
import { stateAsOf } from "../vaults/vaultPath.ts"
import { readEither } from "../readProjection.ts"
import { toPartnerAgreement } from "./PartnerAgreement.ts"
import type { PartnerAgreementsBody } from "./ReferrersApi.ts"
import { OwnerWalletRequired } from "./referrerErrors.ts"
import { toReferrerVaultSummary } from "./ReferrerSummary.ts"

const DEFAULT_PAGE_SIZE = 50
/** Seconds a client waits before asking again while the history backfill runs. */
const BACKFILL_RETRY_SECONDS = 10

const pairKey = (vault: string, wallet: string) => `${vault}/${wallet}`

type AgreementsBody = typeof PartnerAgreementsBody.Type

export const ReferrersHandlersLive = implementGroup(
  Api,
  "referrers",
  Effect.gen(function*() {
    const projection = yield* Projection
    const prices = yield* Prices
    const payouts = yield* ReferrerPayouts
    const key = yield* cursorKey
    const cursors = makePayoutCursors(key)
    const cohortCursors = makeCohortCursors(key)
    const flowCursors = makeFlowCursors(key)
    const eventLog = yield* CohortEventLog
    const historyComplete = eventLog.historyComplete.pipe(Effect.orDie)
    const usersBody = PreEncoded.plainEncoder(CohortUserPageBody)
    const summaryBodies = new BodiesPerVersion(ReferrerSummaryBody, (state, referrer: Address) => {
      const seen = new PricesSeen(prices.priceOf)
      const vaults = referrerVaults(state, referrer).map((vault) => toReferrerVaultSummary(vault, seen.priceOf))
      return { success: true as const, data: { referrer, vaults }, asOf: stateAsOf(state), priceAsOf: seen.priceAsOf }
    })
    const flowsBody = PreEncoded.plainEncoder(FlowPageBody)

    return {
      summary: ({ path }) => projection.readSync((state) => summaryBodies.get(state, path.address, path.address)),
      payouts: ({ path, urlParams }) =>
        Effect.gen(function*() {
          yield* projection.requireLive
          const after = urlParams.cursor === undefined ? null : yield* cursors.decode(path.address, urlParams.cursor)
          const limit = urlParams.limit ?? DEFAULT_PAGE_SIZE
          const rows = yield* payouts.page({ referrer: path.address, after, limit: limit + 1 }).pipe(Effect.orDie)
          const page = rows.slice(0, limit)
          const last = page[page.length - 1]
          return yield* projection.readSync((state) => {
            const seen = new PricesSeen(prices.priceOf)
            return {
              success: true as const,
              data: {
                referrer: path.address,
                payouts: page.map((row) => toPayout(row, state, seen.priceOf)),
                nextCursor: rows.length > limit && last !== undefined ? cursors.encode(path.address, last) : null
              },
              asOf: stateAsOf(state),
              priceAsOf: seen.priceAsOf
            }
          })
        }),
      users: ({ path, urlParams }) =>
        Effect.gen(function*() {
          const vault = urlParams.vault ?? null
          const after = urlParams.cursor === undefined ? null : yield* cohortCursors.decode(path.address, vault, urlParams.cursor)
          const limit = urlParams.limit ?? DEFAULT_PAGE_SIZE
          const page = yield* readEither(projection, (state) => {
            if (vault !== null && !state.vaults.has(vault)) {
              return Either.left(new NotFound({ code: "VAULT_NOT_FOUND", message: `no vault ${vault} on the configured program` }))
            }
            const { members, more } = cohortPage(state, path.address, { vault, after, limit })
            const positions = members.flatMap((member) => {
              const owner = state.users.get(member.position)?.owner
              return owner === undefined ? [] : [{ member, owner }]
            })
            return Either.right({ positions, more, last: members[members.length - 1] })
          })
          // Bind-time fields of this page's rows: one indexed query on the event log.
          const complete = yield* historyComplete
          const bindings = yield* eventLog
            .bindings(path.address, page.positions.map(({ member, owner }) => ({ vault: member.vault, wallet: owner })))
            .pipe(Effect.orDie)
          const first = new Map<string, Binding>()
          for (const binding of bindings) {
            const key = pairKey(binding.vault, binding.wallet)
            if (!first.has(key)) first.set(key, binding)
          }
          return yield* projection.readSync((state) => {
            const seen = new PricesSeen(prices.priceOf)
            const users = page.positions.flatMap(({ member, owner }) =>
              toCohortUser(state, member, seen.priceOf, first.get(pairKey(member.vault, owner)) ?? (complete ? "not_recorded" : "backfilling")) ??
                []
            )
            return usersBody({
              success: true as const,
              data: {
                referrer: path.address,
                users,
                nextCursor: page.more && page.last !== undefined ? cohortCursors.encode(path.address, vault, page.last.position) : null
              },
              asOf: stateAsOf(state),
              priceAsOf: seen.priceAsOf
            })
          })
        }),
      flows: ({ path, urlParams }) =>
        Effect.gen(function*() {
          yield* projection.requireLive
          const startDate = urlParams.startDate ?? null
          const endDate = urlParams.endDate ?? null
          const window = yield* flowWindow(startDate, endDate)
          const after = urlParams.cursor === undefined ? null : yield* flowCursors.decode(path.address, startDate, endDate, urlParams.cursor)
          // Before the backfill ends the log misses older bindings and flows: unavailable, never a short list.
          if (!(yield* historyComplete)) {
            return yield* Effect.fail(ProjectionUnavailable.because("backfilling_history", BACKFILL_RETRY_SECONDS))
          }
          const limit = urlParams.limit ?? DEFAULT_PAGE_SIZE
          const rows = yield* eventLog.flows({ referrer: path.address, ...window, after, limit: limit + 1 }).pipe(Effect.orDie)
          const page = rows.slice(0, limit)
          const last = page[page.length - 1]
          return yield* projection.readSync((state) => {
            const seen = new PricesSeen(prices.priceOf)
            const flows = page.map((row) => toFlow(row, state, seen.priceOf))
            return flowsBody({
              success: true as const,
              data: {
                referrer: path.address,
                flows,
                nextCursor: rows.length > limit && last !== undefined ? flowCursors.encode(path.address, startDate, endDate, last) : null
              },
              asOf: stateAsOf(state),
              priceAsOf: seen.priceAsOf
            })
          })
        }),
      agreements: () =>
        Effect.flatMap(AuthenticatedPartner, ({ ownerWallet }): Effect.Effect<AgreementsBody, OwnerWalletRequired | ProjectionUnavailable> => {
          if (ownerWallet === null) {
            return Either.left(
              new OwnerWalletRequired({
                code: "OWNER_WALLET_REQUIRED",
                message: "this partner key was issued without an owner wallet, so it has no referral agreements; use a key issued for the builder's wallet"
              })
            )
          }
          return projection.readSync((state) => ({
            success: true as const,
            data: {
              ownerWallet: ownerWallet as Address,
              vaults: [...state.vaults.values()]
                .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
                .map((view) => {
                  const registration = state.registrations.get(ownerWallet, view.address)
                  return toPartnerAgreement(view, registration === undefined ? null : (state.referrers.get(registration) ?? null))
                })
            },
            asOf: stateAsOf(state)
          }))
        })
    }
  })
)

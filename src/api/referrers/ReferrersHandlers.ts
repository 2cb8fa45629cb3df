import { Effect, Either } from "effect"
import type { ProjectionUnavailable } from "../../domain/errors.ts"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { builderVaults } from "../../domain/reporting/builderVaults.ts"
import { Api } from "../Api.ts"
import { implementGroup } from "../handlers.ts"
import { AuthenticatedPartner } from "../security/PartnerKey.ts"
import type { Address } from "../schemas.ts"
import { stateAsOf } from "../vaults/vaultPath.ts"
import { toPartnerAgreement } from "./PartnerAgreement.ts"
import type { PartnerAgreementsBody } from "./ReferrersApi.ts"
import { OwnerWalletRequired } from "./referrerErrors.ts"
import { toReferrerVaultSummary } from "./ReferrerSummary.ts"

type AgreementsBody = typeof PartnerAgreementsBody.Type

export const ReferrersHandlersLive = implementGroup(
  Api,
  "referrers",
  Effect.gen(function*() {
    const projection = yield* Projection
    const prices = yield* Prices

    return {
      summary: ({ path }) =>
        projection.readSync((state) => ({
          success: true as const,
          data: {
            referrer: path.address,
            vaults: builderVaults(state, path.address).map((vault) => toReferrerVaultSummary(vault, prices.priceOf))
          },
          asOf: stateAsOf(state)
        })),
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

import { Schema } from "effect"
import type { VaultView } from "../../domain/projection/state.ts"
import type { ReferrerEntry } from "../../domain/projection/state.ts"
import { tierStanding } from "../../domain/reporting/tierStanding.ts"
import { resolveTierRates } from "../../ntbundle/math.ts"
import { RawAmount } from "../amounts.ts"
import { Address } from "../schemas.ts"

/** The current terms of the key's owner wallet as a builder in one vault (spec §2.5). */
export const PartnerAgreement = Schema.Struct({
  vault: Address,
  registered: Schema.Boolean,
  active: Schema.Boolean,
  referrerEnabled: Schema.Boolean,
  referrerMinDepositAmount: RawAmount,
  /** What fee settlement uses now: the custom rate where its override flag is set, else the tier at the counter. */
  effectiveMfeeBps: Schema.Int,
  effectivePfeeBps: Schema.Int,
  /** The ReferrerAccount's bits: 1 = custom performance-fee rate, 2 = custom management-fee rate; 0 when not registered. */
  rateOverrideFlags: Schema.Int,
  defaultMfeeBps: Schema.Int.annotations({
    jsonSchema: { deprecated: true },
    description: "Deprecated: the tier rate at zero referred net deposits. Not used to project earnings; use effectiveMfeeBps."
  }),
  defaultPfeeBps: Schema.Int.annotations({
    jsonSchema: { deprecated: true },
    description: "Deprecated: the tier rate at zero referred net deposits. Not used to project earnings; use effectivePfeeBps."
  })
}).annotations({ identifier: "PartnerAgreement" })
export type PartnerAgreement = typeof PartnerAgreement.Type

export const PartnerAgreements = Schema.Struct({
  ownerWallet: Address,
  /** One entry per vault of the program, by vault address. */
  vaults: Schema.Array(PartnerAgreement)
}).annotations({ identifier: "PartnerAgreements" })
export type PartnerAgreements = typeof PartnerAgreements.Type

export const toPartnerAgreement = (view: VaultView, referrer: ReferrerEntry | null): PartnerAgreement => {
  const account = referrer?.account ?? null
  const standing = tierStanding(view.bundle, account)
  const defaults = resolveTierRates(view.bundle, 0n)
  return {
    vault: view.address as Address,
    registered: account !== null,
    active: account?.active ?? false,
    referrerEnabled: view.bundle.referrerEnabled,
    referrerMinDepositAmount: view.bundle.referrerMinDepositAmount.toString(),
    effectiveMfeeBps: standing.effectiveMfeeBps,
    effectivePfeeBps: standing.effectivePfeeBps,
    rateOverrideFlags: account?.rateOverrideFlags ?? 0,
    defaultMfeeBps: defaults.referralMfeeBps,
    defaultPfeeBps: defaults.referralPfeeBps
  }
}

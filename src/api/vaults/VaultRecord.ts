import { Schema } from "effect"
import { Amount, RawAmount } from "../amounts.ts"
import { Address } from "../schemas.ts"

/** The deposit asset: the mint and decimals from chain, the symbol from the token table (null if unknown). */
export const AssetInfo = Schema.Struct({
  mint: Address,
  symbol: Schema.NullOr(Schema.String),
  decimals: Schema.Int
}).annotations({ identifier: "AssetInfo" })
export type AssetInfo = typeof AssetInfo.Type

const ReferralTier = Schema.Struct({ threshold: RawAmount, mfeeBps: Schema.Int, pfeeBps: Schema.Int })

/** The vault's referral configuration as the Bundle account holds it (never hard-coded). */
const Referral = Schema.Struct({
  enabled: Schema.Boolean,
  /** Rates of the tier a builder with no referred deposits is in (0 below the first tier). */
  mfeeBps: Schema.Int,
  pfeeBps: Schema.Int,
  minDepositAmount: RawAmount,
  /** The configured tiers (the first `tier_count` of the on-chain schedule), lowest first. */
  tiers: Schema.Array(ReferralTier)
})

const WithdrawalPolicy = Schema.Struct({
  /** Lock after a deposit before a withdrawal may be requested. */
  delaySeconds: Schema.Int,
  /** Cooldown = ceil(tMin + (tMax − tMin) × (shares / totalShares)^curve) seconds. */
  cooldown: Schema.Struct({ tMinSeconds: Schema.Int, tMaxSeconds: Schema.Int, curve: Schema.Number }),
  /** null when the vault has no redemption cycle (cutoff 0); unix seconds otherwise. */
  redemptionSchedule: Schema.NullOr(
    Schema.Struct({ requestCutoffTs: Schema.Int, unlockCurrentCycleTs: Schema.Int, unlockNextCycleTs: Schema.Int })
  )
})

/**
 * One vault (a Bundle account of the configured program), with the field names of the real service
 * (facts §10.7) plus a few more. Amounts are raw strings; fee rates JSON integers in bps.
 */
export const VaultRecord = Schema.Struct({
  bundleKey: Address,
  legacyVaultId: Schema.NullOr(Schema.Int),
  name: Schema.NullOr(Schema.String),
  /** Registry category in camelCase (e.g. "marketNeutral"); null for vaults outside the catalog. */
  category: Schema.NullOr(Schema.String),
  asset: AssetInfo,
  visible: Schema.Boolean,
  private: Schema.Boolean,
  enabled: Schema.Boolean,
  deprecated: Schema.Boolean,
  depositFeeBps: Schema.Int,
  managementFeeBps: Schema.Int,
  performanceFeeBps: Schema.Int,
  withdrawalFeeBps: Schema.Int,
  minDepositAmount: RawAmount,
  /** Maximum total deposits (TVL cap) in raw asset units. */
  maxCap: RawAmount,
  paused: Schema.Boolean,
  /** Only allowlisted depositors may deposit. */
  permissioned: Schema.Boolean,
  /** Chain time (the asOf block time) minus the oracle's last update; null when either is unknown. */
  oracleAgeSeconds: Schema.NullOr(Schema.Int),
  /** The redemption schedule's cycle where the vault has one (30 min, 1 h or 1 day); else null: the keeper's deposit cadence is not on chain. */
  processFrequency: Schema.NullOr(Schema.Literal("30min", "hourly", "daily")),
  /** Total equity (vault token account + oracle-reported external equity); null until the oracle account is seen. */
  tvl: Schema.NullOr(Amount),
  /** Asset minor units per 10^decimals share units; null until the oracle account is seen. */
  sharePrice: Schema.NullOr(RawAmount),
  totalShares: RawAmount,
  withdrawalPolicy: WithdrawalPolicy,
  referral: Referral
}).annotations({ identifier: "VaultRecord" })
export type VaultRecord = typeof VaultRecord.Type

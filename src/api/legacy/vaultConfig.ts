import { Schema } from "effect"
import type { CatalogEntry } from "../../domain/catalog.ts"
import type { VaultView } from "../../domain/projection/state.ts"
import { formatTokenAmount } from "../amounts.ts"
import { processFrequency } from "../../domain/processingSchedule.ts"

const NullableNumber = Schema.NullOr(Schema.Number)

/**
 * The v1 `VaultConfig` (facts §11), bare, with JSON numbers as v1 had them: amounts are in token
 * units and lose precision beyond 2^53 minor units (v2 has the exact strings). Fees are percentages
 * (bps / 100); v1's unit for them is not documented. Fields the chain and the catalog cannot fill
 * (minimum withdrawal, processing cadence and time) are null.
 */
export const VaultConfig = Schema.Struct({
  vaultId: Schema.Int,
  name: Schema.String,
  subname: Schema.NullOr(Schema.String),
  type: Schema.Literal("Bundle"),
  category: Schema.String,
  chain: Schema.Literal("solana"),
  vaultAddress: Schema.String,
  depositToken: Schema.String,
  depositTokenAddress: Schema.String,
  depositTokenDecimals: Schema.Int,
  tvlCap: Schema.Number,
  minDepositAmount: Schema.Number,
  minWithdrawAmount: NullableNumber,
  /** Seconds a deposit stays locked before a withdrawal may be requested (`withdrawal_delay`). */
  depositLock: Schema.Number,
  /** Longest withdrawal cooldown in seconds (`withdrawal_t_max`). */
  redeemLock: Schema.Number,
  processFrequency: Schema.NullOr(Schema.String),
  processTime: Schema.NullOr(Schema.String),
  performanceFee: Schema.Number,
  managementFee: Schema.Number,
  depositFee: Schema.Number,
  withdrawalFee: Schema.Number,
  enabled: Schema.Boolean,
  private: Schema.Boolean,
  deprecated: Schema.Boolean,
  ntMultiplier: NullableNumber,
  bundleProgramId: Schema.String
}).annotations({ identifier: "LegacyVaultConfig" })
export type VaultConfig = typeof VaultConfig.Type

const tokens = (raw: bigint, decimals: number): number => Number(formatTokenAmount(raw, decimals))
const percent = (bps: number): number => bps / 100

export const toVaultConfig = (entry: CatalogEntry, view: VaultView, programId: string): VaultConfig => {
  const { registry, flags } = entry
  const bundle = view.bundle
  return {
    vaultId: registry.id,
    name: registry.name,
    subname: registry.subname,
    type: "Bundle",
    category: registry.category,
    chain: "solana",
    vaultAddress: view.address,
    depositToken: registry.depositToken,
    depositTokenAddress: bundle.assetAddress,
    depositTokenDecimals: bundle.assetDecimals,
    tvlCap: tokens(bundle.maxDepositAmount, bundle.assetDecimals),
    minDepositAmount: tokens(bundle.minDepositAmount, bundle.assetDecimals),
    minWithdrawAmount: null,
    depositLock: Number(bundle.withdrawalDelay),
    redeemLock: Number(bundle.withdrawalTMax),
    processFrequency: processFrequency(bundle),
    processTime: null,
    performanceFee: percent(bundle.performanceFee),
    managementFee: percent(bundle.managementFeeBps),
    depositFee: percent(bundle.depositFee),
    withdrawalFee: percent(bundle.withdrawalFee),
    enabled: flags.enabled,
    private: flags.private,
    deprecated: flags.deprecated,
    ntMultiplier: registry.pointsMultiplier,
    bundleProgramId: programId
  }
}

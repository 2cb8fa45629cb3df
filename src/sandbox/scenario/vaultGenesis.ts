import type { Address } from "@solana/kit"
import { encodeBundle, encodeBundleTempData, encodeOracleData, encodeUserBundleAccount, type ReferralTier } from "../../ntbundle/accounts.ts"
import { blankBundle, blankBundleTempData, blankOracleData, blankReferralTier, blankUserBundleAccount } from "../../ntbundle/blankAccounts.ts"
import { encodeBundleName, findUserBundlePda } from "../../ntbundle/pdas.ts"
import type { AccountState } from "../ledger/ledger.ts"
import { minimumBalanceForRentExemption } from "../programs/ids.ts"
import { vaultAddresses } from "../ntbundle/support.ts"
import type { TokenGenesis } from "./tokenGenesis.ts"

/**
 * A vault's accounts as its manager would have created them before the sandbox starts: the
 * Bundle at its registry address, OracleData and BundleTempData at their PDAs, the pending and
 * asset token accounts (ATAs of the two authorities), the treasury (the manager's ATA), and an
 * optional seed position of the manager's own (shares at price 1.0 for the vault's initial
 * equity: `seedUnderlying` tokens in the asset account plus `seedExternalEquity` reported by
 * the oracle as deployed elsewhere).
 */
export interface VaultConfig {
  readonly address: string
  readonly name: string
  readonly mint: string
  readonly decimals: number
  readonly manager: string
  readonly keeper: string
  readonly depositFeeBps: number
  readonly withdrawalFeeBps: number
  readonly performanceFeeBps: number
  readonly managementFeeBps: number
  readonly minDepositAmount: bigint
  /** TVL cap; 0 = none. */
  readonly maxDepositAmount: bigint
  readonly withdrawalDelaySeconds: bigint
  readonly withdrawalTMinSeconds: bigint
  readonly withdrawalTMaxSeconds: bigint
  readonly withdrawalCurve: number
  readonly oracleMaxAgeSeconds: bigint
  readonly oracleUpdateTimeLimitSeconds: bigint
  /** Largest oracle move per update, in bps of total equity; 0 = unchecked. */
  readonly oracleBufferBps: bigint
  readonly referral: { readonly minDepositAmount: bigint; readonly tiers: ReadonlyArray<ReferralTier> } | null
  readonly seedUnderlying: bigint
  readonly seedExternalEquity: bigint
}

const programAccount = (programId: string, data: Uint8Array): AccountState => ({
  owner: programId,
  lamports: minimumBalanceForRentExemption(data.length),
  data,
  executable: false
})

export const vaultAccounts = (programId: string, config: VaultConfig, tokens: TokenGenesis, now: bigint): Array<readonly [string, AccountState]> => {
  const pdas = vaultAddresses(programId, config.address, config.mint)
  const treasury = tokens.credit(config.manager, config.mint, 0n)
  tokens.credit(pdas.pendingAuthority, config.mint, 0n)
  tokens.credit(pdas.assetAuthority, config.mint, config.seedUnderlying)
  const seedShares = config.seedUnderlying + config.seedExternalEquity
  const tiers = Array.from({ length: 5 }, (_, index) => config.referral?.tiers[index] ?? blankReferralTier())
  const bundle = blankBundle({
    name: encodeBundleName(config.name.slice(0, 32)) ?? new Uint8Array(32),
    manager: config.manager as Address,
    keeper: config.keeper as Address,
    treasuryAccount: treasury as Address,
    bundleUnderlyingBalance: config.seedUnderlying,
    maxDepositAmount: config.maxDepositAmount,
    withdrawalDelay: config.withdrawalDelaySeconds,
    performanceFee: config.performanceFeeBps,
    managementFeeBps: config.managementFeeBps,
    depositFee: config.depositFeeBps,
    withdrawalFee: config.withdrawalFeeBps,
    currentAllocationBps: 10_000,
    oracleBuffer: config.oracleBufferBps,
    totalShares: seedShares,
    assetPrecision: 10n ** BigInt(config.decimals),
    assetAddress: config.mint as Address,
    assetDecimals: config.decimals,
    withdrawalTMin: config.withdrawalTMinSeconds,
    withdrawalTMax: config.withdrawalTMaxSeconds,
    withdrawalCurve: config.withdrawalCurve,
    minDepositAmount: config.minDepositAmount,
    oracleUpdateTimeLimit: config.oracleUpdateTimeLimitSeconds,
    oracleMaxAge: config.oracleMaxAgeSeconds,
    referrerEnabled: config.referral !== null,
    referrerMinDepositAmount: config.referral?.minDepositAmount ?? 0n,
    referralTiers: tiers,
    tierCount: config.referral?.tiers.length ?? 0
  })
  const states: Array<readonly [string, AccountState]> = [
    [config.address, programAccount(programId, encodeBundle(bundle))],
    [pdas.oracleData, programAccount(programId, encodeOracleData(blankOracleData({ averageExternalEquity: config.seedExternalEquity, lastUpdateTime: now })))],
    [pdas.bundleTempData, programAccount(programId, encodeBundleTempData(blankBundleTempData()))]
  ]
  if (seedShares > 0n) {
    const [position] = findUserBundlePda(programId as Address, config.manager as Address, config.address as Address)
    const seed = blankUserBundleAccount(config.manager as Address, {
      shares: seedShares,
      netDeposits: seedShares,
      lastDepositTimestamp: now,
      lastManagementFeeTimestamp: now,
      hwmPerShare: 10n ** BigInt(config.decimals)
    })
    states.push([position, programAccount(programId, encodeUserBundleAccount(seed))])
  }
  return states
}

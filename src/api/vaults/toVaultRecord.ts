import type { UsdPrice } from "../../domain/usdPrice.ts"
import { catalogEntryByAddress, UNLISTED_FLAGS } from "../../domain/catalog.ts"
import type { AsOf } from "../../domain/chainPosition.ts"
import type { VaultView } from "../../domain/projection/state.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { MAX_REFERRAL_TIERS, resolveTierRates, sharePrice } from "../../ntbundle/math.ts"
import { tokenByMint } from "../../ntbundle/tokens.ts"
import { amount } from "../amounts.ts"
import type { Address } from "../schemas.ts"
import type { AssetInfo, VaultRecord } from "./VaultRecord.ts"
import { processFrequency } from "../../domain/processingSchedule.ts"

/** "Market Neutral" -> "marketNeutral" (the real service's category spelling, per its UI humanizer). */
export const camelCaseCategory = (category: string): string =>
  category
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()))
    .join("")

/** The on-chain name: 32 bytes of UTF-8, zero-padded; null when empty. */
const chainName = (bytes: Uint8Array): string | null => {
  const end = bytes.indexOf(0)
  const text = new TextDecoder().decode(end === -1 ? bytes : bytes.subarray(0, end)).trim()
  return text === "" ? null : text
}

/** Seconds as a JSON integer; i64 fields of real accounts are far below 2^53. */
const seconds = (value: bigint): number => Number(value)

// Per decoded Bundle (never mutated: each update decodes a new one); the stream asks for it once per
// followed position and builder of the vault on every change of the vault.
const assets = new WeakMap<VaultView["bundle"], AssetInfo>()

/** Mint and decimals from the Bundle (authoritative); the symbol from the token tables. */
export const assetOf = (view: VaultView): AssetInfo => {
  const cached = assets.get(view.bundle)
  if (cached !== undefined) return cached
  const mint = view.bundle.assetAddress
  const known = tokenByMint("mainnet", mint) ?? tokenByMint("devnet", mint)
  const asset: AssetInfo = { mint, symbol: known?.displaySymbol ?? null, decimals: view.bundle.assetDecimals }
  assets.set(view.bundle, asset)
  return asset
}

export const toVaultRecord = (view: VaultView, asOf: AsOf | null, priceOf: (mint: string) => UsdPrice | null): VaultRecord => {
  const bundle = view.bundle
  const catalog = catalogEntryByAddress(view.address)
  const asset = assetOf(view)
  const valuation = valuationOf(view)
  const baseRates = resolveTierRates(bundle, 0n)
  const tiers = bundle.referralTiers.slice(0, Math.max(0, Math.min(bundle.tierCount, MAX_REFERRAL_TIERS)))
  const blockTime = asOf?.blockTime ?? null
  return {
    bundleKey: view.address as Address,
    legacyVaultId: catalog?.registry.id ?? null,
    name: catalog?.registry.displayName ?? chainName(bundle.name),
    category: catalog === null ? null : camelCaseCategory(catalog.registry.category),
    asset,
    ...(catalog?.flags ?? UNLISTED_FLAGS),
    depositFeeBps: bundle.depositFee,
    managementFeeBps: bundle.managementFeeBps,
    performanceFeeBps: bundle.performanceFee,
    withdrawalFeeBps: bundle.withdrawalFee,
    minDepositAmount: bundle.minDepositAmount.toString(),
    maxCap: bundle.maxDepositAmount.toString(),
    paused: view.temp?.pausedDepositsWithdrawals ?? false,
    permissioned: bundle.permissionned,
    oracleAgeSeconds:
      view.oracle === null || blockTime === null ? null : Math.max(0, blockTime - seconds(view.oracle.lastUpdateTime)),
    processFrequency: processFrequency(bundle),
    tvl: valuation === null ? null : amount(valuation.totalEquity, asset.decimals, priceOf(asset.mint)?.usd ?? null),
    sharePrice: valuation === null ? null : sharePrice(valuation).toString(),
    totalShares: bundle.totalShares.toString(),
    withdrawalPolicy: {
      delaySeconds: seconds(bundle.withdrawalDelay),
      cooldown: {
        tMinSeconds: seconds(bundle.withdrawalTMin),
        tMaxSeconds: seconds(bundle.withdrawalTMax),
        curve: Number.isFinite(bundle.withdrawalCurve) ? bundle.withdrawalCurve : 0
      },
      redemptionSchedule: bundle.withdrawalRedemptionRequestCutoffTs === 0n ? null : {
        requestCutoffTs: seconds(bundle.withdrawalRedemptionRequestCutoffTs),
        unlockCurrentCycleTs: seconds(bundle.withdrawalRedemptionUnlockCurrentCycleTs),
        unlockNextCycleTs: seconds(bundle.withdrawalRedemptionUnlockNextCycleTs)
      }
    },
    referral: {
      enabled: bundle.referrerEnabled,
      mfeeBps: baseRates.referralMfeeBps,
      pfeeBps: baseRates.referralPfeeBps,
      minDepositAmount: bundle.referrerMinDepositAmount.toString(),
      tiers: tiers.map((tier) => ({ threshold: tier.threshold.toString(), mfeeBps: tier.mfeeBps, pfeeBps: tier.pfeeBps }))
    }
  }
}

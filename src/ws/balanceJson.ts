import type { UsdPrice } from "../../services/Prices.ts"
import { tokenQuantity } from "../api/amounts.ts"
import { balanceValuation } from "../api/users/balance.ts"
import type { Position } from "../api/users/positionOf.ts"
import { assetOf } from "../api/vaults/toVaultRecord.ts"
import type { AssetInfo } from "../api/vaults/VaultRecord.ts"
import type { AsOf } from "../domain/chainPosition.ts"
import type { VaultView } from "../domain/projection/state.ts"
import type { UserBundleAccount } from "../ntbundle/accounts.ts"
import { amountJson, quantityJson } from "./amountJson.ts"

/** A position's balance JSON around the valued fields, in the Balance schema's key order. */
interface Fragments {
  readonly vault: string
  readonly mint: string
  readonly symbol: string | null
  readonly decimals: number
  /** `{"vault":…,"user":…,"asset":…,"shares":…` */
  readonly head: string
  /** `,"netDeposits":…` */
  readonly middle: string
  /** `,"pendingDeposit":…,"feesPaid":…` */
  readonly tail: string
}

// Per decoded position (each notification decodes a new one): a vault change re-values every
// followed position in it, and only value, earnings and the fee estimate move with the vault.
const fragmentsOf = new WeakMap<UserBundleAccount, Fragments>()

// Per asset record (one per decoded Bundle): every position's head repeats it.
const assetJsons = new WeakMap<AssetInfo, string>()

const assetJson = (asset: AssetInfo): string => {
  let json = assetJsons.get(asset)
  if (json === undefined) assetJsons.set(asset, json = JSON.stringify(asset))
  return json
}

const fragments = (vault: string, account: UserBundleAccount, asset: AssetInfo): Fragments => {
  const cached = fragmentsOf.get(account)
  if (
    cached !== undefined && cached.vault === vault && cached.mint === asset.mint && cached.symbol === asset.symbol &&
    cached.decimals === asset.decimals
  ) return cached
  const decimals = asset.decimals
  const made: Fragments = {
    vault,
    mint: asset.mint,
    symbol: asset.symbol,
    decimals,
    head: `{"vault":${JSON.stringify(vault)},"user":${JSON.stringify(account.owner)},"asset":${assetJson(asset)},"shares":${
      quantityJson(tokenQuantity(account.shares, decimals))
    }`,
    middle: `,"netDeposits":${quantityJson(tokenQuantity(account.netDeposits, decimals))}`,
    tail: `,"pendingDeposit":${quantityJson(tokenQuantity(account.pendingDeposit, decimals))},"feesPaid":${
      quantityJson(tokenQuantity(account.totalFeeCharged, decimals))
    }`
  }
  fragmentsOf.set(account, made)
  return made
}

/** `JSON.stringify` of the REST balance (`toBalance`, encoded), the position's own fields kept. */
export const balanceJson = (
  view: VaultView,
  position: Position,
  asOf: AsOf | null,
  priceOf: (mint: string) => UsdPrice | null
): string => {
  const asset = assetOf(view)
  const parts = fragments(view.address, position.account, asset)
  const valued = balanceValuation(view, position.account, asset, asOf, priceOf)
  const fees = valued.unpaidFeeEstimate
  const feesJson = fees === null
    ? "null"
    : `{"estimatedAt":${fees.estimatedAt},"totalFeeShares":${quantityJson(fees.totalFeeShares)},"value":${amountJson(fees.value)}}`
  return `${parts.head},"value":${amountJson(valued.value)}${parts.middle},"earnings":${quantityJson(valued.earnings)}${parts.tail},"unpaidFeeEstimate":${feesJson}}`
}

import type { UsdPrice } from "../domain/usdPrice.ts"
import { tokenQuantity } from "../api/amounts.ts"
import { balanceValuation } from "../api/users/balance.ts"
import { assetOf } from "../api/vaults/toVaultRecord.ts"
import type { AssetInfo } from "../api/vaults/VaultRecord.ts"
import type { AsOf } from "../domain/chainPosition.ts"
import type { VaultView } from "../domain/projection/state.ts"
import { type PositionBalanceFields, readBalanceFields } from "../domain/projection/userFields.ts"
import { amountJson, quantityJson } from "./amountJson.ts"
import type { Topic } from "./topics.ts"

type UserTopic = Extract<Topic, { kind: "user" }>

/** A position's own fields and their balance JSON around the valued ones, in the Balance schema's key order. */
interface Pieces {
  /** The position's bytes these were read from (each notification brings new ones). */
  readonly data: Uint8Array
  readonly vault: string
  readonly mint: string
  readonly symbol: string | null
  readonly decimals: number
  readonly fields: PositionBalanceFields
  /** `{"vault":…,"user":…,"asset":…,"shares":…` */
  readonly head: string
  /** `,"netDeposits":…` */
  readonly middle: string
  /** `,"pendingDeposit":…,"feesPaid":…` */
  readonly tail: string
}

// Per asset record (one per decoded Bundle): every position's head repeats it.
const assetJsons = new WeakMap<AssetInfo, string>()

const assetJson = (asset: AssetInfo): string => {
  let json = assetJsons.get(asset)
  if (json === undefined) assetJsons.set(asset, json = JSON.stringify(asset))
  return json
}

const makePieces = (topic: UserTopic, vault: string, data: Uint8Array, asset: AssetInfo): Pieces => {
  const fields = readBalanceFields(data)
  const decimals = asset.decimals
  return {
    data,
    vault,
    mint: asset.mint,
    symbol: asset.symbol,
    decimals,
    fields,
    head: `{"vault":${JSON.stringify(vault)},"user":${JSON.stringify(topic.wallet)},"asset":${assetJson(asset)},"shares":${
      quantityJson(tokenQuantity(fields.shares, decimals))
    }`,
    middle: `,"netDeposits":${quantityJson(tokenQuantity(fields.netDeposits, decimals))}`,
    tail: `,"pendingDeposit":${quantityJson(tokenQuantity(fields.pendingDeposit, decimals))},"feesPaid":${
      quantityJson(tokenQuantity(fields.totalFeeCharged, decimals))
    }`
  }
}

/**
 * `JSON.stringify` of the REST balance (`toBalance`, encoded) of a followed `user:` topic, from the
 * position's raw bytes. A vault change re-values every followed position in it, and only value,
 * earnings and the fee estimate move with the vault: the rest is kept per topic until the
 * position's bytes change. Kept per Topic object (it lives while the topic is followed, so the
 * pieces go with it) and never per decoded object: weak keys that die young make every
 * young-generation GC slower.
 */
export class BalanceJsonWriter {
  readonly #pieces = new WeakMap<UserTopic, Pieces>()

  /** `data` is the topic's position (the wallet's UserBundleAccount in `view`'s vault). */
  json(topic: UserTopic, view: VaultView, data: Uint8Array, asOf: AsOf | null, priceOf: (mint: string) => UsdPrice | null): string {
    const asset = assetOf(view)
    let pieces = this.#pieces.get(topic)
    if (
      pieces === undefined || pieces.data !== data || pieces.vault !== view.address || pieces.mint !== asset.mint ||
      pieces.symbol !== asset.symbol || pieces.decimals !== asset.decimals
    ) this.#pieces.set(topic, pieces = makePieces(topic, view.address, data, asset))
    const valued = balanceValuation(view, pieces.fields, asset, asOf, priceOf)
    const fees = valued.unpaidFeeEstimate
    const feesJson = fees === null
      ? "null"
      : `{"estimatedAt":${fees.estimatedAt},"totalFeeShares":${quantityJson(fees.totalFeeShares)},"value":${amountJson(fees.value)}}`
    return `${pieces.head},"value":${amountJson(valued.value)}${pieces.middle},"earnings":${quantityJson(valued.earnings)}${pieces.tail},"unpaidFeeEstimate":${feesJson}}`
  }
}

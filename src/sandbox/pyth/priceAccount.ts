import { PRICE_UPDATE_V2_DISCRIMINATOR, PRICE_UPDATE_V2_SIZE } from "../../pyth/priceUpdate.ts"
import { addressToBytes } from "../crypto/keypair.ts"

/** What the sandbox writes into a PriceUpdateV2 account (always fully verified, as Pyth's push feeds are). */
export interface PostedPrice {
  readonly writeAuthority: string
  readonly feedId: Uint8Array
  readonly price: bigint
  readonly conf: bigint
  readonly exponent: number
  readonly publishTime: bigint
  readonly prevPublishTime: bigint
  readonly emaPrice: bigint
  readonly emaConf: bigint
  readonly postedSlot: bigint
}

const VERIFICATION_FULL = 1

/** The account's bytes as the receiver program lays them out (134 bytes, the last one padding after `Full`). */
export const encodePriceUpdateAccount = (posted: PostedPrice): Uint8Array => {
  const data = new Uint8Array(PRICE_UPDATE_V2_SIZE)
  const view = new DataView(data.buffer)
  data.set(PRICE_UPDATE_V2_DISCRIMINATOR, 0)
  data.set(addressToBytes(posted.writeAuthority), 8)
  data[40] = VERIFICATION_FULL
  data.set(posted.feedId, 41)
  view.setBigInt64(73, posted.price, true)
  view.setBigUint64(81, posted.conf, true)
  view.setInt32(89, posted.exponent, true)
  view.setBigInt64(93, posted.publishTime, true)
  view.setBigInt64(101, posted.prevPublishTime, true)
  view.setBigInt64(109, posted.emaPrice, true)
  view.setBigUint64(117, posted.emaConf, true)
  view.setBigUint64(125, posted.postedSlot, true)
  return data
}

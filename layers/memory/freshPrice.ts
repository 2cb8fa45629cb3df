import type { UsdPrice } from "../../src/domain/usdPrice.ts"
import type { PriceAccount } from "../../src/domain/projection/priceAccounts.ts"
import { priceAsNumber, PYTH_RECEIVER_PROGRAM_ID } from "../../src/pyth/priceUpdate.ts"

/**
 * The USD price a feed account holds, if it can be trusted now: owned by the receiver, a fully
 * verified PriceUpdateV2 with a positive price, published at most `maxAgeSeconds` before the
 * chain time `chainTime` (unix seconds of the projection's newest complete slot). Null otherwise,
 * including when the chain time is unknown (freshness cannot be judged).
 */
export const freshPrice = (account: PriceAccount | undefined, chainTime: number | null, maxAgeSeconds: number): UsdPrice | null => {
  const update = account?.update
  if (account === undefined || update == null || account.owner !== PYTH_RECEIVER_PROGRAM_ID || chainTime === null) return null
  if (update.verificationLevel._tag !== "Full" || update.price <= 0n) return null
  if (chainTime - update.publishTime > maxAgeSeconds) return null
  const usd = priceAsNumber(update.price, update.exponent)
  // the update's own posted slot; the slot the account was seen at when the update does not say
  const slot = update.postedSlot > 0n ? Number(update.postedSlot) : account.slot
  return Number.isFinite(usd) && usd > 0 ? { usd, publishTime: update.publishTime, slot } : null
}

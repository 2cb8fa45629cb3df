import { describe, expect, it } from "vitest"
import type { PriceAccount } from "../../../src/domain/projection/priceAccounts.ts"
import { freshPrice } from "../../../layers/memory/freshPrice.ts"
import { PYTH_RECEIVER_PROGRAM_ID, type PriceUpdateV2 } from "../../../src/pyth/priceUpdate.ts"

const update: PriceUpdateV2 = {
  writeAuthority: "11111111111111111111111111111111",
  verificationLevel: { _tag: "Full" },
  feedId: "00".repeat(32),
  price: 9_998_000n,
  conf: 1_000n,
  exponent: -7,
  publishTime: 1_000,
  prevPublishTime: 999,
  emaPrice: 9_998_000n,
  emaConf: 1_000n,
  postedSlot: 5n
}
const held = (changes: Partial<PriceUpdateV2> = {}, owner = PYTH_RECEIVER_PROGRAM_ID): PriceAccount => ({
  owner,
  slot: 5,
  data: new Uint8Array(),
  update: { ...update, ...changes }
})

describe("freshPrice", () => {
  it("answers price × 10^exponent with its publish time while within the bound of chain time", () => {
    expect(freshPrice(held(), 1_000, 60)).toEqual({ usd: 0.9998, publishTime: 1_000, slot: 5 })
    expect(freshPrice(held(), 1_060, 60)).toEqual({ usd: 0.9998, publishTime: 1_000, slot: 5 })
    // an update that does not say its posted slot: the slot the account was seen at
    expect(freshPrice({ ...held({ postedSlot: 0n }), slot: 7 }, 1_000, 60)?.slot).toBe(7)
    // a publish time slightly ahead of the chain's clock is still current
    expect(freshPrice(held({ publishTime: 1_003 }), 1_000, 60)?.usd).toBe(0.9998)
  })

  it("is null once stale, without a chain time, or for an account it cannot trust", () => {
    expect(freshPrice(held(), 1_061, 60)).toBeNull()
    expect(freshPrice(held(), null, 60)).toBeNull()
    expect(freshPrice(undefined, 1_000, 60)).toBeNull()
    expect(freshPrice({ ...held(), update: null }, 1_000, 60)).toBeNull()
    expect(freshPrice(held({}, "11111111111111111111111111111111"), 1_000, 60)).toBeNull()
    expect(freshPrice(held({ verificationLevel: { _tag: "Partial", numSignatures: 5 } }), 1_000, 60)).toBeNull()
    expect(freshPrice(held({ price: 0n }), 1_000, 60)).toBeNull()
    expect(freshPrice(held({ price: -1n }), 1_000, 60)).toBeNull()
  })
})

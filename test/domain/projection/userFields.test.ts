import { type Address, getAddressDecoder } from "@solana/kit"
import { Either, FastCheck } from "effect"
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { readBalanceFields, readOwner, readReferrer, readShares } from "../../../src/domain/projection/userFields.ts"
import { decodeUserBundleAccount, encodeAccount } from "../../../src/ntbundle/accounts.ts"
import { blankUserBundleAccount } from "../../../src/ntbundle/blankAccounts.ts"
import { USER_BUNDLE_ACCOUNT_FIELDS } from "../../../src/ntbundle/generated/accounts.ts"
import { structArbitrary } from "../../support/fieldArbitraries.ts"

const randomAddress = (): Address => getAddressDecoder().decode(randomBytes(32))
const randomU128 = (): bigint => BigInt(`0x${randomBytes(16).toString("hex")}`)
const ZERO = "11111111111111111111111111111111" as Address

const position = (owner: Address, referrer: Address, shares: bigint) =>
  encodeAccount({
    type: "UserBundleAccount",
    data: blankUserBundleAccount(owner, { shares, referrer, netDeposits: randomU128() - (1n << 127n), pendingDeposit: randomU128() >> 64n, lastHighWaterMark: randomU128() })
  })

/** What the full decoder says the index fields are. */
const decoded = (data: Uint8Array) => {
  const account = Either.getOrThrow(decodeUserBundleAccount(data))
  return { owner: account.owner, shares: account.shares, referrer: account.referrer === ZERO ? null : account.referrer }
}

describe("user index fields read in place", () => {
  it("agree with the full decoder on random positions, owners repeated, alternated and differing in one byte", () => {
    const owners = Array.from({ length: 8 }, randomAddress)
    const referrers = [ZERO, ...Array.from({ length: 3 }, randomAddress)]
    const accounts: Array<Uint8Array> = []
    for (let i = 0; i < 400; i++) {
      const owner = owners[Math.floor(Math.random() * owners.length)]!
      accounts.push(position(owner, referrers[i % referrers.length]!, i % 7 === 0 ? 0n : randomU128()))
    }
    // An owner that differs from the previous one in its last byte only.
    const near = position(owners[0]!, ZERO, 1n)
    const nearer = near.slice()
    nearer[8 + 31] = nearer[8 + 31]! ^ 1
    accounts.push(near, nearer, near, nearer)
    for (const data of accounts) {
      expect({ owner: readOwner(data), shares: readShares(data), referrer: readReferrer(data) }).toEqual(decoded(data))
    }
  })
})

describe("balance fields read in place", () => {
  it("agree with the full decoder on random positions (every field random, extremes included)", () => {
    FastCheck.assert(
      FastCheck.property(structArbitrary(USER_BUNDLE_ACCOUNT_FIELDS), (fields) => {
        const data = encodeAccount({ type: "UserBundleAccount", data: fields } as never)
        const account = Either.getOrThrow(decodeUserBundleAccount(data))
        expect(readBalanceFields(data)).toEqual({
          shares: account.shares,
          pendingDeposit: account.pendingDeposit,
          hwmPerShare: account.hwmPerShare,
          lastManagementFeeTimestamp: account.lastManagementFeeTimestamp,
          netDeposits: account.netDeposits,
          totalFeeCharged: account.totalFeeCharged
        })
      }),
      { numRuns: 500 }
    )
  })
})

import { describe, expect, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { Either } from "effect"
import { decodeUserBundleAccount, encodeUserBundleAccount, type UserBundleAccount } from "../../src/ntbundle/accounts.ts"
import { USER_BUNDLE_ACCOUNT_DISCRIMINATOR, USER_BUNDLE_ACCOUNT_SIZE } from "../../src/ntbundle/generated/accounts.ts"
import { readPositionFields, type PositionFields } from "../../src/ntbundle/positionFields.ts"

const FIELDS: ReadonlyArray<keyof PositionFields> = [
  "lastDepositTimestamp",
  "shares",
  "pendingDeposit",
  "pendingShares",
  "estimatedPendingWithdrawalValue",
  "netDeposits",
  "totalFeeCharged",
  "customDepositFeeBps",
  "customWithdrawalFeeBps",
  "customPerformanceFeeBps",
  "customManagementFeeBps",
  "feeOverrideFlags",
  "referrer"
]

const pick = (account: UserBundleAccount): PositionFields =>
  Object.fromEntries(FIELDS.map((field) => [field, account[field]])) as unknown as PositionFields

/** Random bytes under the UserBundleAccount discriminator, with a valid bool at switchActive (offset 222). */
const randomAccount = (extra = 0): Uint8Array => {
  const data = new Uint8Array(randomBytes(USER_BUNDLE_ACCOUNT_SIZE + extra))
  data.set(USER_BUNDLE_ACCOUNT_DISCRIMINATOR, 0)
  data[222] = data[222]! & 1
  return data
}

const agreeWithDecoder = (data: Uint8Array) => {
  const decoded = decodeUserBundleAccount(data)
  expect(Either.isRight(decoded)).toBe(true)
  if (Either.isRight(decoded)) expect(readPositionFields(data)).toEqual(pick(decoded.right))
}

describe("readPositionFields", () => {
  it("reads what the full codec decodes from random accounts (every bit pattern, signs, trailing bytes)", () => {
    for (let round = 0; round < 500; round++) agreeWithDecoder(randomAccount(round % 3 === 0 ? 16 : 0))
  })

  it("reads accounts the codec encoded, extremes included", () => {
    const base = Either.getOrThrow(decodeUserBundleAccount(randomAccount()))
    for (const fields of [
      { shares: 2n ** 128n - 1n, netDeposits: -(2n ** 127n), lastDepositTimestamp: -(2n ** 63n), customDepositFeeBps: 2 ** 32 - 1 },
      { shares: 0n, netDeposits: 2n ** 127n - 1n, lastDepositTimestamp: 2n ** 63n - 1n, feeOverrideFlags: 255 },
      { pendingShares: 1n, pendingDeposit: 2n ** 64n - 1n, estimatedPendingWithdrawalValue: 1n, netDeposits: -1n }
    ]) {
      agreeWithDecoder(encodeUserBundleAccount({ ...base, ...fields }))
    }
  })

  it("is null wherever the full decoder fails", () => {
    const good = randomAccount()
    const short = good.subarray(0, USER_BUNDLE_ACCOUNT_SIZE - 1)
    const otherDiscriminator = good.slice()
    otherDiscriminator[3] = otherDiscriminator[3]! ^ 1
    const badBool = good.slice()
    badBool[222] = 2
    for (const data of [short, otherDiscriminator, badBool, new Uint8Array(0)]) {
      expect(Either.isLeft(decodeUserBundleAccount(data))).toBe(true)
      expect(readPositionFields(data)).toBeNull()
    }
  })

  it("reads a view into a larger buffer at its own offset", () => {
    const data = randomAccount()
    const padded = new Uint8Array(data.length + 13)
    padded.set(data, 13)
    expect(readPositionFields(padded.subarray(13))).toEqual(readPositionFields(data))
  })
})

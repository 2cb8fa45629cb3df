import { describe, expect, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import type { Address } from "@solana/kit"
import { readCohortFields } from "../../../src/domain/reporting/cohortFields.ts"
import { decodeUserBundleAccount, encodeUserBundleAccount } from "../../../src/ntbundle/accounts.ts"
import { encodeBase58Bytes32 } from "../../../src/ntbundle/base58.ts"
import { blankUserBundleAccount } from "../../../src/ntbundle/blankAccounts.ts"

const unsigned = (bits: number) => BigInt(`0x${randomBytes(bits / 8).toString("hex")}`)
const signed = (bits: number) => BigInt.asIntN(bits, unsigned(bits))

describe("readCohortFields", () => {
  it("reads what the full codec decodes, extremes and signs included", () => {
    const extremes = [
      { shares: 2n ** 128n - 1n, netDeposits: -(2n ** 127n), pendingDeposit: 2n ** 64n - 1n, lastDepositTimestamp: -1n },
      { shares: 0n, netDeposits: 2n ** 127n - 1n, pendingDeposit: 0n, lastDepositTimestamp: 2n ** 63n - 1n },
      { shares: 1n, netDeposits: -1n, pendingDeposit: 1n, lastDepositTimestamp: 0n }
    ]
    const randoms = Array.from({ length: 200 }, () => ({
      shares: unsigned(128), netDeposits: signed(128), pendingDeposit: unsigned(64), lastDepositTimestamp: signed(64),
      pendingShares: unsigned(128), hwmPerShare: unsigned(128), totalFeeCharged: unsigned(64)
    }))
    for (const fields of [...extremes, ...randoms]) {
      const owner = encodeBase58Bytes32(randomBytes(32)) as Address
      const bytes = encodeUserBundleAccount(blankUserBundleAccount(owner, fields))
      const decoded = decodeUserBundleAccount(bytes)
      expect(decoded._tag).toBe("Right")
      if (decoded._tag !== "Right") continue
      const full = decoded.right
      expect(readCohortFields(bytes)).toEqual({
        owner: full.owner, lastDepositTimestamp: full.lastDepositTimestamp, shares: full.shares,
        pendingDeposit: full.pendingDeposit, netDeposits: full.netDeposits
      })
    }
  })

  it("refuses bytes too short to hold the fields", () => {
    expect(readCohortFields(new Uint8Array(100))).toBeNull()
  })
})

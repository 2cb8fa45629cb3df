import { type Address, getAddressDecoder } from "@solana/kit"
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import type { UsdPrice } from "../../src/domain/usdPrice.ts"
import { ProjectionState } from "../../src/domain/projection/state.ts"
import { encodeAccount } from "../../src/ntbundle/accounts.ts"
import { blankBundle, blankOracleData, blankReferrerAccount, blankUserBundleAccount } from "../../src/ntbundle/blankAccounts.ts"
import { findOraclePda, findReferrerPda, findUserBundlePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { dataTopicValue } from "../../src/ws/snapshots.ts"
import { TopicJsonReader } from "../../src/ws/topicJson.ts"
import { parseTopic, type Topic } from "../../src/ws/topics.ts"

const program = NTBUNDLE_PROGRAM_ID
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const randomAddress = (): Address => getAddressDecoder().decode(randomBytes(32))
const small = (): bigint => BigInt(Math.floor(Math.random() * 1e12))

describe("TopicJsonReader", () => {
  it("gives the JSON of dataTopicValue's data for every topic, through changes of vaults, oracles, registrations and positions", () => {
    const state = new ProjectionState(program)
    const vaults = [randomAddress(), randomAddress(), randomAddress()]
    const builders = [randomAddress(), randomAddress()]
    const wallets = Array.from({ length: 12 }, randomAddress)
    let slot = 1
    const put = (address: string, data: Uint8Array) => state.apply({ address, owner: program, slot: slot++, data })
    const bundle = (vault: Address) =>
      put(vault, encodeAccount({ type: "Bundle", data: blankBundle({ assetAddress: USDC, assetDecimals: 6, totalShares: small() + 1n, bundleUnderlyingBalance: small() }) }))
    const oracle = (vault: Address) =>
      put(findOraclePda(program, vault)[0], encodeAccount({ type: "OracleData", data: blankOracleData({ averageExternalEquity: small(), lastUpdateTime: 1_800_000_000n }) }))
    const registration = (vault: Address, builder: Address) =>
      put(findReferrerPda(program, vault, builder)[0], encodeAccount({ type: "ReferrerAccount", data: blankReferrerAccount(vault, builder, { accruedMfeeShares: small(), pendingWithdrawShares: small() }) }))
    const position = (i: number, referrer: Address | null) => {
      const vault = vaults[i % vaults.length]!
      put(findUserBundlePda(program, wallets[i]!, vault)[0], encodeAccount({
        type: "UserBundleAccount",
        data: blankUserBundleAccount(wallets[i]!, {
          shares: small(),
          netDeposits: small() - small(),
          pendingDeposit: small(),
          totalFeeCharged: small(),
          // A fee estimate with and without a high-water mark and a management-fee start.
          hwmPerShare: i % 2 === 0 ? 0n : small(),
          lastManagementFeeTimestamp: i % 3 === 0 ? 0n : 1_700_000_000n + small() % 100_000_000n,
          ...(referrer === null ? {} : { referrer })
        })
      }))
    }
    const close = (address: string) => state.apply({ address, owner: program, slot: slot++, data: new Uint8Array() })

    const topics: Array<Topic> = [
      ...vaults.map((vault) => parseTopic(`vault:${vault}`)!),
      ...builders.map((builder) => parseTopic(`referrer:${builder}`)!),
      ...wallets.map((wallet, i) => parseTopic(`user:${vaults[i % vaults.length]}:${wallet}`)!)
    ]
    const prices: Array<(mint: string) => UsdPrice | null> = [() => null, () => ({ usd: 0.9998, publishTime: 1_800_000_000, slot: 1 }), () => ({ usd: 1.25, publishTime: 1_800_000_000, slot: 1 })]
    const readers = prices.map((priceOf) => new TopicJsonReader(priceOf))
    const check = () => {
      state.asOf = { slot, blockTime: 1_800_000_000 + slot }
      readers.forEach((reader, p) => {
        for (const topic of topics) {
          const expected = dataTopicValue(state, topic, prices[p]!)
          const got = reader.read(state, topic)
          if (expected === undefined) expect(got).toBeUndefined()
          else expect(got).toEqual({ asOf: expected.asOf, json: JSON.stringify(expected.data) })
        }
      })
    }

    check()
    for (const vault of vaults) bundle(vault)
    check()
    registration(vaults[0]!, builders[0]!)
    check()
    wallets.forEach((_, i) => position(i, i % 3 === 0 ? null : builders[i % 2]!))
    check()
    oracle(vaults[0]!)
    oracle(vaults[1]!)
    check()
    for (let round = 0; round < 30; round++) {
      const pick = Math.floor(Math.random() * 5)
      if (pick === 0) bundle(vaults[round % vaults.length]!)
      else if (pick === 1) oracle(vaults[round % vaults.length]!)
      else if (pick === 2) registration(vaults[round % vaults.length]!, builders[round % 2]!)
      else position(round % wallets.length, round % 4 === 0 ? null : builders[round % 2]!)
      check()
    }
    close(findReferrerPda(program, vaults[0]!, builders[0]!)[0])
    close(findUserBundlePda(program, wallets[1]!, vaults[1]!)[0])
    check()
    close(vaults[2]!)
    check()
  })
})

import { AccountRole, type Address } from "@solana/kit"
import { describe, expect, it } from "vitest"
import { applyFeesToUserIx } from "../../../src/ntbundle/ix/keeper.ts"
import { findReferrerPda, findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import { applyFeesToPositionIx } from "../../../src/sandbox/ntbundle/keeperInstructions.ts"
import { eventsFromLogs, type NtEvent } from "../../../src/ntbundle/events.ts"
import { createRandom } from "../../../src/sandbox/crypto/random.ts"
import type { TransactionRecord } from "../../../src/sandbox/ledger/transactionStore.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { Keeper } from "../../../src/sandbox/ntbundle/keeper.ts"
import { KeeperIndex } from "../../../src/sandbox/ntbundle/keeperIndex.ts"
import { expectLanded, makeHarness, USDC, type Harness } from "./harness.ts"
import { flows } from "./flows.ts"

const DAY = 86_400

/** A keeper over the harness vault, and the keeper transactions it lands, with their events. */
const withKeeper = (h: Harness) => {
  const index = new KeeperIndex(h.chain.ledger, h.programId, [h.vault])
  const keeper = new Keeper(h.chain, {
    keeper: h.keeper,
    vaults: [h.vault],
    index,
    random: createRandom("keeper-test"),
    intervalSeconds: 60,
    feePositionsPerRun: 50,
    maxDepositsPerRun: 50,
    maxPayoutsPerRun: 50,
    feesPerTransaction: 8
  })
  const landed: Array<TransactionRecord> = []
  h.chain.ledger.subscribe((event) => {
    if (event.kind === "accounts" && event.transaction !== undefined && event.transaction.accountKeys[0] === h.keeper.address) landed.push(event.transaction)
  })
  const run = (): Array<NtEvent> => {
    const from = landed.length
    h.chain.step(1)
    keeper.runVault(h.vault)
    return landed.slice(from).flatMap((record) => {
      expect(record.err).toBeNull()
      return eventsFromLogs(record.logs, h.programId).map(({ event }) => event)
    })
  }
  return { keeper, run, landed }
}

const named = <N extends NtEvent["name"]>(events: Array<NtEvent>, name: N) => events.filter((event): event is Extract<NtEvent, { name: N }> => event.name === name)

describe("keeper lifecycle", () => {
  it("nets and processes a deposit: shares minted, Allocated logged, in real keeper transactions", () => {
    const h = makeHarness()
    const f = flows(h)
    const { run, keeper, landed } = withKeeper(h)
    const alice = h.wallet("alice")
    expectLanded(f.requestDeposit(alice, 5_000n * USDC))
    const events = run()
    expect(events.map((event) => event.name)).toEqual(expect.arrayContaining(["OracleUpdated", "NettingCompleted", "Allocated", "ChargedFeesToUser"]))
    const allocated = named(events, "Allocated")[0]!
    expect(allocated.data.userSharesAfter).toBe(h.user(alice.address)!.shares)
    expect(h.user(alice.address)!.shares).toBeGreaterThan(0n)
    expect(keeper.stats).toMatchObject({ nettings: 1, deposits: 1, failures: 0 })
    expect(landed.every((record) => record.signature.length > 80 && h.chain.ledger.transactions.get(record.signature) !== undefined)).toBe(true)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("pays a withdrawal only after its cooldown, with Redeemed", () => {
    const h = makeHarness()
    const f = flows(h)
    const { run } = withKeeper(h)
    const alice = h.wallet("alice")
    expectLanded(f.requestDeposit(alice, 5_000n * USDC))
    run()
    expectLanded(f.requestWithdrawal(alice, h.user(alice.address)!.shares))
    expect(named(run(), "Redeemed")).toHaveLength(0)
    h.advanceSeconds(3_600)
    const redeemed = named(run(), "Redeemed")
    expect(redeemed).toHaveLength(1)
    expect(redeemed[0]!.data.userSharesAfter).toBe(0n)
    expect(h.user(alice.address)!.pendingShares).toBe(0n)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("accrues referral fees at the live tier rate and settles the builder's claim", () => {
    const h = makeHarness({ vault: (config) => ({ ...config, withdrawalTMaxSeconds: 600n }) })
    const f = flows(h)
    const { run, keeper } = withKeeper(h)
    const builder = h.wallet("builder")
    const alice = h.wallet("alice")
    expectLanded(f.requestDeposit(builder, 100n * USDC))
    run()
    expectLanded(f.register(builder))
    expectLanded(f.attributedDeposit(alice, 600_000n * USDC, builder.address))
    const first = run()
    expect(named(first, "Allocated")[0]!.data.referredNetDepositsAfter).toBe(h.referrer(builder.address)!.referredNetDeposits)
    h.advanceSeconds(30 * DAY)
    const accrued = named(run(), "ReferralFeesAccrued")
    expect(accrued).toHaveLength(1)
    expect(accrued[0]!.data).toMatchObject({ referrer: builder.address, referralMfeeBps: 2000, referralTierIndex: 1 })
    expect(accrued[0]!.data.referrerMfeeShares).toBeGreaterThan(0n)

    expectLanded(f.claim(builder))
    h.advanceSeconds(600)
    const settled = named(run(), "ReferrerWithdrawalProcessed")
    expect(settled).toHaveLength(1)
    expect(settled[0]!.data.referrer).toBe(builder.address)
    expect(h.tokenBalance(h.ata(builder.address))).toBeGreaterThan(20_000_000n * USDC - 100n * USDC)
    expect(keeper.stats.failures).toBe(0)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("runs each vault on its schedule from the slot hook", () => {
    const h = makeHarness()
    const { keeper } = withKeeper(h)
    h.chain.scheduler.onSlot(() => keeper.runDue())
    h.chain.step(150)
    expect(keeper.stats.oracleUpdates).toBeGreaterThanOrEqual(1)
    expect(keeper.stats.oracleUpdates).toBeLessThanOrEqual(2)
    const before = h.oracle().averageExternalEquity
    h.chain.step(2, 120_000)
    expect(keeper.stats.oracleUpdates).toBeGreaterThanOrEqual(3)
    expect(h.oracle().averageExternalEquity).not.toBe(before)
  })
})

describe("applyFeesToPositionIx", () => {
  it("builds the same instruction as src/ntbundle's applyFeesToUserIx", () => {
    const h = makeHarness()
    const alice = h.wallet("alice")
    const builder = h.wallet("builder")
    const remainingAccounts = [{ address: findReferrerPda(h.programId, h.vault, builder.address as Address)[0], role: AccountRole.WRITABLE }]
    const common = { program: h.programId, bundle: h.vault, keeper: h.keeper.address as Address, owner: alice.address as Address, remainingAccounts }
    const position = findUserBundlePda(h.programId, alice.address as Address, h.vault)[0]
    expect(applyFeesToPositionIx({ ...common, assetMint: h.mint, position })).toEqual(applyFeesToUserIx(common))
  })
})

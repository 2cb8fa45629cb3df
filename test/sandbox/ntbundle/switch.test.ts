import { AccountRole, type Address } from "@solana/kit"
import { describe, expect, it } from "vitest"
import { ZERO_ADDRESS } from "../../../src/ntbundle/blankAccounts.ts"
import { netPendingTransactionsIx, processDepositIx, processSwitchIx } from "../../../src/ntbundle/ix/keeper.ts"
import { initializeBundleDepositorIx, requestBundleSwitchIx } from "../../../src/ntbundle/ix/user.ts"
import { findReferrerPda } from "../../../src/ntbundle/pdas.ts"
import { createRandom } from "../../../src/sandbox/crypto/random.ts"
import type { Keypair } from "../../../src/sandbox/crypto/keypair.ts"
import { deterministicKeypair } from "../../../src/sandbox/crypto/keypair.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { Keeper } from "../../../src/sandbox/ntbundle/keeper.ts"
import { KeeperIndex } from "../../../src/sandbox/ntbundle/keeperIndex.ts"
import { bundleView, tempDataView } from "../../../src/sandbox/ntbundle/layout.ts"
import { vaultAddresses } from "../../../src/sandbox/ntbundle/support.ts"
import { customErrorOf, expectLanded, makeHarness, MINT, USDC, type Harness } from "./harness.ts"
import { flows } from "./flows.ts"

// A second vault of the same mint, with its own manager (so its own treasury) and a deposit fee
// different from the source's, so that fee A and fee B cannot be confused.
const TARGET = deterministicKeypair("ntbundle-test", "target-vault").address as Address
const TARGET_MANAGER = deterministicKeypair("ntbundle-test", "target-manager").address

const setup = () => {
  const h = makeHarness({
    moreVaults: [(config) => ({ ...config, address: TARGET, name: "Target Bundle", manager: TARGET_MANAGER, depositFeeBps: 40, seedUnderlying: 500_000n * USDC })]
  })
  return { h, f: flows(h), alice: h.wallet("alice"), bob: h.wallet("bob") }
}

const targetPdas = (h: Harness) => vaultAddresses(h.programId, TARGET, MINT)
const targetBundle = (h: Harness) => bundleView(h.chain.ledger.getAccount(TARGET)!.data)
const targetTemp = (h: Harness) => tempDataView(h.chain.ledger.getAccount(targetPdas(h).bundleTempData)!.data)

const switchOps = (h: Harness) => {
  const keeperTarget = { program: h.programId, bundle: h.vault, keeper: h.keeper.address as Address, assetMint: h.mint }
  return {
    initTarget: (user: Keypair) =>
      expectLanded(h.send(user, [initializeBundleDepositorIx({ program: h.programId, bundle: TARGET, payer: user.address as Address, authority: user.address as Address })])),
    request: (user: Keypair, sharesAmount: bigint, target: Address = TARGET) =>
      h.send(user, [requestBundleSwitchIx({ program: h.programId, bundle: h.vault, user: user.address as Address, targetBundle: target, sharesAmount })]),
    process: (owner: string, target: Address = TARGET) =>
      h.send(h.keeper, [
        processSwitchIx({
          ...keeperTarget,
          owner: owner as Address,
          treasury: h.bundle().treasuryAccount,
          targetBundle: target,
          targetTreasury: bundleView(h.chain.ledger.getAccount(target)!.data).treasuryAccount as Address
        })
      ]),
    netTarget: () => h.send(h.keeper, [netPendingTransactionsIx({ ...keeperTarget, bundle: TARGET })]),
    processTargetDeposit: (owner: string) => h.send(h.keeper, [processDepositIx({ ...keeperTarget, bundle: TARGET, owner: owner as Address })])
  }
}

/** Rewrites an account's bytes in place (a test-only state change). */
const patch = (h: Harness, address: string, edit: (data: Uint8Array) => void) => {
  const account = h.chain.ledger.getAccount(address)!
  const data = new Uint8Array(account.data)
  edit(data)
  h.chain.setAccount(address, { ...account, data })
}

describe("request_bundle_switch", () => {
  it("locks the shares like a withdrawal request, records the switch and logs BundleSwitchRequested", () => {
    const { h, f, alice } = setup()
    const s = switchOps(h)
    f.deposit(alice, 10_000n * USDC)
    s.initTarget(alice)
    const shares = h.user(alice.address)!.shares
    const bundle = h.bundle()
    const gross = ((shares / 2n) * (bundle.bundleUnderlyingBalance + h.oracle().averageExternalEquity)) / bundle.totalShares
    const out = expectLanded(s.request(alice, shares / 2n))
    const user = h.user(alice.address)!
    expect(user).toMatchObject({ shares: shares - shares / 2n, pendingShares: shares / 2n, estimatedPendingWithdrawalValue: gross, switchActive: true, switchTargetBundle: TARGET })
    expect(user.switchCreatedAt).toBe(BigInt(h.chain.ledger.clock.blockTime()))
    expect(h.bundle().totalShares).toBe(bundle.totalShares)
    expect(h.temp().pendingWithdrawalsCounter).toBe(1n)
    const feeA = (gross * 30n + 9_999n) / 10_000n
    const feeB = ((gross - feeA) * 40n + 9_999n) / 10_000n
    expect(h.events(out)).toEqual([
      expect.objectContaining({
        name: "BundleSwitchRequested",
        data: expect.objectContaining({
          user: alice.address,
          sourceBundle: h.vault,
          targetBundle: TARGET,
          sharesAmount: shares / 2n,
          estimatedGrossRedemption: gross,
          estimatedNetToDestination: gross - feeA,
          estimatedDestinationDepositFee: feeB,
          estimatedDestinationPendingDeposit: gross - feeA - feeB,
          cooldownEndTimestamp: user.withdrawalAvailableTimestamp
        })
      })
    ])
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("refuses the source as target (6077), another mint (6078), a second switch (6079), a position of someone else (6082), missing target accounts (6081) and a withdrawal meanwhile (6028)", () => {
    const { h, f, alice, bob } = setup()
    const s = switchOps(h)
    f.deposit(alice, 1_000n * USDC)
    s.initTarget(alice)
    s.initTarget(bob)
    expect(customErrorOf(s.request(alice, 10n, h.vault))).toBe(6077)
    // the target's position passed must be the user's own
    const wrongPosition = requestBundleSwitchIx({ program: h.programId, bundle: h.vault, user: alice.address as Address, targetBundle: TARGET, sharesAmount: 10n })
    const accounts = [...wrongPosition.accounts]
    accounts[9] = requestBundleSwitchIx({ program: h.programId, bundle: h.vault, user: bob.address as Address, targetBundle: TARGET, sharesAmount: 10n }).accounts[9]!
    expect(customErrorOf(h.send(alice, [{ ...wrongPosition, accounts }]))).toBe(6082)
    // the target's accounts left off
    expect(customErrorOf(h.send(alice, [{ ...wrongPosition, accounts: wrongPosition.accounts.slice(0, 9) }]))).toBe(6081)
    expectLanded(s.request(alice, 10n))
    expect(customErrorOf(s.request(alice, 10n))).toBe(6079)
    expect(customErrorOf(f.requestWithdrawal(alice, 10n))).toBe(6028)
    // a vault of another mint
    const otherMint = deterministicKeypair("ntbundle-test", "other-mint").address
    const fresh = setup()
    fresh.f.deposit(fresh.alice, 1_000n * USDC)
    switchOps(fresh.h).initTarget(fresh.alice)
    patch(fresh.h, TARGET, (data) => {
      bundleView(data).assetAddress = otherMint
    })
    expect(customErrorOf(switchOps(fresh.h).request(fresh.alice, 10n))).toBe(6078)
  })
})

describe("process_switch", () => {
  it("redeems at the source price (fee A), credits the net after fee B as the target's pending deposit, then the target mints its shares", () => {
    const { h, f, alice } = setup()
    const s = switchOps(h)
    f.deposit(alice, 10_000n * USDC)
    s.initTarget(alice)
    const shares = h.user(alice.address)!.shares
    expect(customErrorOf(s.process(alice.address))).toBe(6080)
    expectLanded(s.request(alice, shares))
    expect(customErrorOf(s.process(alice.address))).toBe(6054)
    expect(customErrorOf(f.processWithdrawal(alice.address))).toBe(6079)
    h.advanceSeconds(3600)
    expectLanded(f.updateOracle(50_000n * USDC))
    const bundle = h.bundle()
    const gross = (shares * (bundle.bundleUnderlyingBalance + h.oracle().averageExternalEquity)) / bundle.totalShares
    const feeA = (gross * 30n + 9_999n) / 10_000n
    const feeB = ((gross - feeA) * 40n + 9_999n) / 10_000n
    const credited = gross - feeA - feeB
    const target = targetBundle(h)
    const balances = () => ({
      sourceTreasury: h.tokenBalance(bundle.treasuryAccount),
      targetTreasury: h.tokenBalance(target.treasuryAccount),
      targetPending: h.tokenBalance(targetPdas(h).pendingTokenAccount),
      sourceAssets: h.tokenBalance(h.pdas.assetTokenAccount),
      wallet: h.tokenBalance(h.ata(alice.address))
    })
    const before = balances()
    const out = expectLanded(s.process(alice.address))
    const after = balances()
    expect({
      sourceTreasury: after.sourceTreasury - before.sourceTreasury,
      targetTreasury: after.targetTreasury - before.targetTreasury,
      targetPending: after.targetPending - before.targetPending,
      sourceAssets: before.sourceAssets - after.sourceAssets,
      wallet: after.wallet - before.wallet
    }).toEqual({ sourceTreasury: feeA, targetTreasury: feeB, targetPending: credited, sourceAssets: gross, wallet: 0n })
    expect(h.user(alice.address)).toMatchObject({ shares: 0n, pendingShares: 0n, switchActive: false, switchTargetBundle: ZERO_ADDRESS, switchCreatedAt: 0n })
    expect(h.bundle().totalShares).toBe(bundle.totalShares - shares)
    expect(h.bundle().bundleUnderlyingBalance).toBe(bundle.bundleUnderlyingBalance - gross)
    expect(h.userIn(alice.address, TARGET)).toMatchObject({ shares: 0n, pendingDeposit: credited })
    expect(targetTemp(h)).toMatchObject({ pendingDepositsCounter: 1n, cumulativePendingDeposits: credited })
    expect(h.events(out)).toEqual([
      expect.objectContaining({
        name: "BundleSwitchCompleted",
        data: expect.objectContaining({
          user: alice.address,
          sourceBundle: h.vault,
          targetBundle: TARGET,
          sharesRedeemed: shares,
          grossRedemption: gross,
          netToDestination: gross - feeA,
          netCreditedToDestination: credited,
          withdrawalFeeA: feeA,
          depositFeeB: feeB,
          userSharesBefore: shares,
          userSharesAfter: 0n,
          totalSharesBefore: bundle.totalShares,
          totalSharesAfter: bundle.totalShares - shares,
          sourceReferredNetDepositsAfter: null
        })
      })
    ])
    expect(customErrorOf(s.process(alice.address))).toBe(6080)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])

    expectLanded(s.netTarget())
    const allocated = h.events(expectLanded(s.processTargetDeposit(alice.address)))[0]!
    expect(allocated).toMatchObject({ name: "Allocated", data: { netAmount: credited, userSharesBefore: 0n } })
    expect(h.userIn(alice.address, TARGET)!.shares).toBe((allocated.data as { userSharesAfter: bigint }).userSharesAfter)
    expect(h.userIn(alice.address, TARGET)!.shares > 0n).toBe(true)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("lowers a referred user's builder counter in the source by the gross value (sourceReferredNetDepositsAfter)", () => {
    const { h, f, alice } = setup()
    const builder = h.wallet("builder")
    const s = switchOps(h)
    f.onboardBuilder(builder, 1_000n * USDC)
    f.depositReferred(alice, 5_000n * USDC, builder.address)
    s.initTarget(alice)
    const shares = h.user(alice.address)!.shares
    expectLanded(s.request(alice, shares))
    h.advanceSeconds(3600)
    const counter = h.referrer(builder.address)!.referredNetDeposits
    const bundle = h.bundle()
    const gross = (shares * (bundle.bundleUnderlyingBalance + h.oracle().averageExternalEquity)) / bundle.totalShares
    // without the builder's ReferrerAccount after the IDL accounts
    expect(customErrorOf(s.process(alice.address))).toBe(6088)
    const ix = processSwitchIx({
      program: h.programId, bundle: h.vault, keeper: h.keeper.address as Address, assetMint: h.mint, owner: alice.address as Address,
      treasury: bundle.treasuryAccount, targetBundle: TARGET, targetTreasury: targetBundle(h).treasuryAccount as Address,
      remainingAccounts: [{ address: findReferrerPda(h.programId, h.vault, builder.address as Address)[0], role: AccountRole.WRITABLE }]
    })
    const out = expectLanded(h.send(h.keeper, [ix]))
    expect(h.referrer(builder.address)!.referredNetDeposits).toBe(counter - gross)
    expect(h.events(out)[0]).toMatchObject({ name: "BundleSwitchCompleted", data: { grossRedemption: gross, sourceReferredNetDepositsAfter: counter - gross } })
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("pays the net after fee A to the wallet when the target's deposits are paused (BundleSwitchFallbackToWallet)", () => {
    const { h, f, alice } = setup()
    const s = switchOps(h)
    f.deposit(alice, 2_000n * USDC)
    s.initTarget(alice)
    const shares = h.user(alice.address)!.shares
    expectLanded(s.request(alice, shares))
    h.advanceSeconds(3600)
    patch(h, targetPdas(h).bundleTempData, (data) => {
      tempDataView(data).pausedDepositsWithdrawals = true
    })
    const bundle = h.bundle()
    const gross = (shares * (bundle.bundleUnderlyingBalance + h.oracle().averageExternalEquity)) / bundle.totalShares
    const feeA = (gross * 30n + 9_999n) / 10_000n
    const wallet = h.tokenBalance(h.ata(alice.address))
    const out = expectLanded(s.process(alice.address))
    expect(h.tokenBalance(h.ata(alice.address)) - wallet).toBe(gross - feeA)
    expect(h.events(out)).toEqual([
      expect.objectContaining({ name: "BundleSwitchFallbackToWallet", data: expect.objectContaining({ grossRedemption: gross, withdrawalFeeA: feeA, netToWallet: gross - feeA, reason: 1 }) })
    ])
    expect(h.userIn(alice.address, TARGET)!.pendingDeposit).toBe(0n)
    expect(h.user(alice.address)!.switchActive).toBe(false)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("the keeper completes a due switch and then allocates the target's pending deposit", () => {
    const { h, f, alice } = setup()
    const s = switchOps(h)
    f.deposit(alice, 3_000n * USDC)
    s.initTarget(alice)
    const index = new KeeperIndex(h.chain.ledger, h.programId, [h.vault, TARGET])
    const keeper = new Keeper(h.chain, {
      keeper: h.keeper, vaults: [h.vault, TARGET], index, random: createRandom("switch-test"),
      intervalSeconds: 60, feePositionsPerRun: 0, maxDepositsPerRun: 10, maxPayoutsPerRun: 10, feesPerTransaction: 4
    })
    expectLanded(s.request(alice, h.user(alice.address)!.shares))
    expect(index.vault(h.vault)!.pendingSwitches.size).toBe(1)
    expect(index.vault(h.vault)!.pendingWithdrawals.size).toBe(0)
    h.advanceSeconds(3600)
    h.chain.step(1)
    keeper.runVault(h.vault)
    expect(keeper.stats).toMatchObject({ switches: 1, failures: 0 })
    expect(index.vault(TARGET)!.pendingDeposits.size).toBe(1)
    h.chain.step(1)
    keeper.runVault(TARGET)
    expect(keeper.stats.failures).toBe(0)
    expect(h.userIn(alice.address, TARGET)!.pendingDeposit).toBe(0n)
    expect(h.userIn(alice.address, TARGET)!.shares > 0n).toBe(true)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
    index.close()
  })
})

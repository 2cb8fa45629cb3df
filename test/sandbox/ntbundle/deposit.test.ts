import type { Address } from "@solana/kit"
import { describe, expect, it } from "vitest"
import { encodeInstructionData } from "../../../src/ntbundle/instructions.ts"
import { netPendingTransactionsIx } from "../../../src/ntbundle/ix/keeper.ts"
import { requestDepositIx } from "../../../src/ntbundle/ix/user.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { customErrorOf, expectLanded, makeHarness, USDC, type Harness } from "./harness.ts"
import { flows } from "./flows.ts"
import { fingerprint } from "./fingerprint.ts"

const setup = (configure?: Parameters<typeof makeHarness>[0]) => {
  const h = makeHarness(configure)
  return { h, f: flows(h), alice: h.wallet("alice"), bob: h.wallet("bob") }
}

const noViolations = (h: Harness) => expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])

describe("request_deposit", () => {
  it("takes the fee (rounded up) to the treasury and the net amount to the pending account", () => {
    const { h, f, alice } = setup()
    const treasuryBefore = h.tokenBalance(h.bundle().treasuryAccount)
    const out = expectLanded(f.requestDeposit(alice, 1_000_000_001n))
    const fee = (1_000_000_001n * 25n + 9_999n) / 10_000n
    expect(h.tokenBalance(h.bundle().treasuryAccount) - treasuryBefore).toBe(fee)
    expect(h.tokenBalance(h.pdas.pendingTokenAccount)).toBe(1_000_000_001n - fee)
    expect(h.user(alice.address)?.pendingDeposit).toBe(1_000_000_001n - fee)
    expect(h.temp().pendingDepositsCounter).toBe(1n)
    const requested = h.events(out).find((event) => event.name === "DepositRequested")
    expect(requested?.data).toMatchObject({ user: alice.address, grossAmount: 1_000_000_001n, feeAmount: fee, netAmount: 1_000_000_001n - fee, toppingUp: false, assetMint: h.mint })
    noViolations(h)
  })

  it("treats a second request before processing as a top-up", () => {
    const { h, f, alice } = setup()
    expectLanded(f.requestDeposit(alice, 100n * USDC))
    const out = expectLanded(f.requestDeposit(alice, 50n * USDC))
    expect(h.events(out)[0]).toMatchObject({ name: "DepositRequested", data: { toppingUp: true } })
    expect(h.temp().pendingDepositsCounter).toBe(1n)
    expect(h.user(alice.address)?.pendingDeposit).toBe(150n * USDC - (100n * USDC * 25n) / 10_000n - (50n * USDC * 25n) / 10_000n)
    noViolations(h)
  })

  it("refuses amounts below the vault minimum (MinDepositAmountNotMet 6067) and zero (6046)", () => {
    const { h, f, alice } = setup()
    expectLanded(f.initialize(alice))
    const send = (amount: bigint) =>
      h.send(alice, [requestDepositIx({ program: h.programId, bundle: h.vault, user: alice.address as Address, assetMint: h.mint, treasury: h.bundle().treasuryAccount, amount })])
    expect(customErrorOf(send(5n * USDC - 1n))).toBe(6067)
    expect(customErrorOf(send(0n))).toBe(6046)
    expect(h.user(alice.address)?.pendingDeposit).toBe(0n)
  })

  it("refuses deposits over the TVL cap (MaxDepositAmountExceeded 6043)", () => {
    const { h, f, alice } = setup({ vault: (config) => ({ ...config, maxDepositAmount: 1_000_100n * USDC }) })
    expect(customErrorOf(f.requestDeposit(alice, 200n * USDC))).toBe(6043)
    expectLanded(f.requestDeposit(alice, 90n * USDC))
  })

  it("refuses new requests while a netted cycle is being processed (NettingAlreadyDone 6041)", () => {
    const { h, f, alice, bob } = setup()
    expectLanded(f.requestDeposit(alice, 100n * USDC))
    expectLanded(f.net())
    expect(customErrorOf(f.requestDeposit(bob, 100n * USDC))).toBe(6041)
    expectLanded(f.processDeposit(alice.address))
    expect(h.temp().isNettingDone).toBe(false)
    expectLanded(f.requestDeposit(bob, 100n * USDC))
    noViolations(h)
  })

  it("refuses requests on a stale oracle when the vault sets a maximum age (OracleNotUpdated 6042)", () => {
    const { h, f, alice } = setup({ vault: (config) => ({ ...config, oracleMaxAgeSeconds: 60n }) })
    h.advanceSeconds(120)
    expect(customErrorOf(f.requestDeposit(alice, 100n * USDC))).toBe(6042)
    expectLanded(f.updateOracle(0n))
    expectLanded(f.requestDeposit(alice, 100n * USDC))
  })

  it("changes nothing when it fails, even when the failed transaction lands", () => {
    const { h, f, alice } = setup()
    expectLanded(f.initialize(alice))
    const before = fingerprint(h.chain.ledger)
    const tooSmall = requestDepositIx({ program: h.programId, bundle: h.vault, user: alice.address as Address, assetMint: h.mint, treasury: h.bundle().treasuryAccount, amount: 1n })
    const refused = h.send(alice, [tooSmall])
    expect(refused.kind).toBe("preflightFailed")
    expect(fingerprint(h.chain.ledger)).toEqual(before)

    const landed = h.chain.submit({ feePayer: alice, instructions: [{ programId: h.programId, accounts: tooSmall.accounts.map((meta) => ({ address: meta.address, isSigner: meta.role >= 2, isWritable: (meta.role & 1) === 1 })), data: tooSmall.data }], skipPreflight: true })
    expect(landed.kind).toBe("landed")
    const after = fingerprint(h.chain.ledger)
    const changed = Object.keys(after).filter((address) => after[address] !== before[address])
    expect(changed).toEqual([alice.address])
  })
})

describe("process_deposit", () => {
  it("mints shares at the current price and logs Allocated", () => {
    const { h, f, alice } = setup()
    expectLanded(f.updateOracle(250_000n * USDC))
    const bundle = h.bundle()
    const equity = bundle.bundleUnderlyingBalance + h.oracle().averageExternalEquity
    expectLanded(f.requestDeposit(alice, 1000n * USDC))
    expectLanded(f.net())
    expect(h.tokenBalance(h.pdas.pendingTokenAccount)).toBe(0n)
    const out = expectLanded(f.processDeposit(alice.address))
    const net = 1000n * USDC - (1000n * USDC * 25n) / 10_000n
    const minted = (net * bundle.totalShares) / equity
    expect(h.user(alice.address)).toMatchObject({ shares: minted, pendingDeposit: 0n, netDeposits: net })
    const allocated = h.events(out).find((event) => event.name === "Allocated")
    expect(allocated?.data).toMatchObject({ netAmount: net, userSharesBefore: 0n, userSharesAfter: minted, totalShares: bundle.totalShares + minted, sharePrice: (equity * USDC) / bundle.totalShares, referredNetDepositsAfter: null })
    expect(h.temp()).toMatchObject({ isNettingDone: false, lastTotalSharesMinted: minted, pendingDepositsCounter: 0n })
    noViolations(h)
  })

  it("needs netting first (NettingNotDone 6040), a pending deposit (6032) and the vault's keeper (6004)", () => {
    const { h, f, alice, bob } = setup()
    expectLanded(f.requestDeposit(alice, 100n * USDC))
    expect(customErrorOf(f.processDeposit(alice.address))).toBe(6040)
    expectLanded(f.net())
    expect(customErrorOf(f.processDeposit(bob.address))).toBe(3012)
    expectLanded(f.initialize(bob))
    expect(customErrorOf(f.processDeposit(bob.address))).toBe(6032)
    const impostor = netPendingTransactionsIx({ program: h.programId, bundle: h.vault, keeper: bob.address as Address, assetMint: h.mint })
    expectLanded(f.processDeposit(alice.address))
    expectLanded(f.requestDeposit(alice, 100n * USDC))
    expect(customErrorOf(h.send(bob, [impostor]))).toBe(6004)
    noViolations(h)
  })

  it("refunds a netted deposit from the vault's asset account", () => {
    const { h, f, alice } = setup()
    const before = h.tokenBalance(h.ata(alice.address))
    expectLanded(f.requestDeposit(alice, 100n * USDC))
    expect(customErrorOf(f.refund(alice.address))).toBe(6040)
    expectLanded(f.net())
    const out = expectLanded(f.refund(alice.address))
    const fee = (100n * USDC * 25n) / 10_000n
    expect(h.tokenBalance(h.ata(alice.address))).toBe(before - fee)
    expect(h.events(out)[0]).toMatchObject({ name: "RefundedDeposit", data: { user: alice.address, amount: 100n * USDC - fee } })
    expect(h.temp().isNettingDone).toBe(false)
    noViolations(h)
  })
})

describe("instruction decoding and account checks", () => {
  it("rejects an unknown discriminator (InstructionFallbackNotFound 101) and short arguments (102)", () => {
    const { h, alice } = setup()
    const unknown = h.send(alice, [{ programId: h.programId, accounts: [], data: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) }])
    expect(customErrorOf(unknown)).toBe(101)
    const short = encodeInstructionData({ name: "request_deposit", args: { amount: 1n } }).subarray(0, 12)
    expect(customErrorOf(h.send(alice, [{ programId: h.programId, accounts: [], data: short }]))).toBe(102)
  })

  it("rejects a wrong PDA with ConstraintSeeds (2006) and a missing signature", () => {
    const { h, f, alice, bob } = setup()
    expectLanded(f.initialize(alice))
    const ix = requestDepositIx({ program: h.programId, bundle: h.vault, user: alice.address as Address, assetMint: h.mint, treasury: h.bundle().treasuryAccount, amount: 10n * USDC })
    const wrongOracle = { ...ix, accounts: ix.accounts.map((meta, index) => (index === 6 ? { ...meta, address: h.vault } : meta)) }
    const out = h.send(alice, [wrongOracle])
    expect(customErrorOf(out)).toBe(2006)
    expect("result" in out && out.result?.logs.some((line) => line.includes("AnchorError caused by account: oracle_data. Error Code: ConstraintSeeds"))).toBe(true)
    const notSigned = { ...ix, accounts: ix.accounts.map((meta, index) => (index === 0 ? { ...meta, role: 1 } : meta)) }
    expect(customErrorOf(h.send(bob, [notSigned]))).toBe(3010)
  })
})

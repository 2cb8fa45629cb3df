import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { previewDeposit, previewWithdraw, type DepositPreview, type WithdrawPreview } from "../../../src/domain/builds/previews.ts"
import type { WithdrawPreviewRequest } from "../../../src/domain/builds/requests.ts"
import { makeWorld, NOW, vault, wallet, type World, type WorldSpec } from "../../../src/bench/support/buildWorld.ts"

const depositPreview = (world: World, amount: bigint, processingIntervalSeconds: number | null = 3_600): DepositPreview =>
  Either.getOrThrow(previewDeposit({ state: world.state, vaultAddress: vault, now: NOW, request: { amount }, processingIntervalSeconds }))

const withdrawPreview = (world: World, request: WithdrawPreviewRequest): WithdrawPreview =>
  Either.getOrThrow(previewWithdraw({ state: world.state, vaultAddress: vault, now: NOW, request }))

const codes = (preview: { readonly rejectionReasons: ReadonlyArray<{ readonly code: string }> }) =>
  preview.rejectionReasons.map((r) => r.code)

describe("previewDeposit", () => {
  it("gross, fee, net, shares at the current price and the next processing", () => {
    // equity 1,100 over 1,000 shares: price 1.1; 10 bps fee rounded up
    const world = makeWorld({ temp: { lastNettingTimestamp: NOW - 600n } })
    expect(depositPreview(world, 110_000_000n)).toEqual({
      vaultAddress: vault,
      accepted: true,
      rejectionReasons: [],
      grossAmountRaw: "110000000",
      depositFeeBps: 10,
      feeAmountRaw: "110000",
      netAmountRaw: "109890000",
      sharePriceRaw: "1100000",
      estimatedSharesRaw: "99900000",
      estimatedProcessingSeconds: 3_000,
      estimatedProcessingTimestamp: Number(NOW) + 3_000,
      estimate: true
    })
  })

  it("an empty vault mints at 1.0; unknown cadence gives no processing estimate", () => {
    const world = makeWorld({ bundle: { totalShares: 0n, bundleUnderlyingBalance: 0n }, oracle: { averageExternalEquity: 0n } })
    expect(depositPreview(world, 2_000_000n, null)).toMatchObject({
      sharePriceRaw: "1000000",
      estimatedSharesRaw: "1998000",
      estimatedProcessingSeconds: null,
      estimatedProcessingTimestamp: null
    })
    // never netted: one interval from now
    expect(depositPreview(world, 2_000_000n, 1_800).estimatedProcessingSeconds).toBe(1_800)
  })

  it.each<readonly [string, WorldSpec, bigint]>([
    ["VAULT_PAUSED", { temp: { pausedDepositsWithdrawals: true } }, 5_000_000n],
    ["MIN_DEPOSIT_AMOUNT_NOT_MET", {}, 999_999n],
    ["MAX_DEPOSIT_AMOUNT_EXCEEDED", { bundle: { maxDepositAmount: 1_100_000_000n } }, 5_000_000n],
    ["NETTING_IN_PROGRESS", { temp: { isNettingDone: true } }, 5_000_000n],
    ["ORACLE_DATA_NOT_FOUND", { oracle: null }, 5_000_000n]
  ])("policy refusal %s: accepted false, the numbers still shown where computable", (code, spec, amount) => {
    const preview = depositPreview(makeWorld(spec), amount)
    expect(preview.accepted).toBe(false)
    expect(codes(preview)).toEqual([code])
    expect(preview.grossAmountRaw).toBe(amount.toString())
    expect(preview.estimatedSharesRaw === null).toBe(code === "ORACLE_DATA_NOT_FOUND")
  })

  it("does not check user conditions: a permissioned vault previews as accepted", () => {
    expect(depositPreview(makeWorld({ bundle: { permissionned: true } }), 5_000_000n).accepted).toBe(true)
  })

  it("an unknown vault is UnknownVault", () => {
    const world = makeWorld()
    const outcome = previewDeposit({ state: world.state, vaultAddress: wallet("nowhere"), now: NOW, request: { amount: 1n }, processingIntervalSeconds: null })
    expect(Either.isLeft(outcome)).toBe(true)
  })
})

describe("previewWithdraw", () => {
  it("by shares: value, fee, net, cooldown, availability", () => {
    expect(withdrawPreview(makeWorld(), { shares: 100_000_000n })).toEqual({
      vaultAddress: vault,
      accepted: true,
      rejectionReasons: [],
      sharesRaw: "100000000",
      estimatedValueRaw: "110000000",
      withdrawalFeeBps: 30,
      feeAmountRaw: "330000",
      netAmountRaw: "109670000",
      cooldownSeconds: 11_880,
      estimatedAvailableTimestamp: Number(NOW) + 11_880,
      estimate: true
    })
  })

  it("by amount: the shares it is worth now, rounded down", () => {
    expect(withdrawPreview(makeWorld(), { amount: 55_000_001n })).toMatchObject({ sharesRaw: "50000000", estimatedValueRaw: "55000000" })
  })

  it.each<readonly [string, WorldSpec, WithdrawPreviewRequest]>([
    ["VAULT_PAUSED", { temp: { pausedDepositsWithdrawals: true } }, { shares: 1_000_000n }],
    ["WITHDRAWAL_EXCEEDS_VAULT", {}, { shares: 1_000_000_001n }],
    ["WITHDRAWAL_EXCEEDS_VAULT", {}, { amount: 1_100_000_001n }],
    ["WITHDRAWAL_SHARES_ZERO", {}, { amount: 1n }],
    ["WITHDRAWAL_VALUE_TOO_SMALL", { bundle: { bundleUnderlyingBalance: 1n }, oracle: { averageExternalEquity: 0n } }, { shares: 1n }],
    ["ORACLE_DATA_NOT_FOUND", { oracle: null }, { shares: 1n }]
  ])("policy refusal %s", (code, spec, request) => {
    const preview = withdrawPreview(makeWorld(spec), request)
    expect(preview.accepted).toBe(false)
    expect(codes(preview)).toEqual([code])
    if (code === "WITHDRAWAL_EXCEEDS_VAULT") {
      // beyond the whole vault the cooldown curve means nothing (it once answered 8e25 seconds)
      expect(preview.cooldownSeconds).toBeNull()
      expect(preview.estimatedAvailableTimestamp).toBeNull()
    }
  })
})

import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Either } from "effect"
import type { RejectionCode } from "../../../src/domain/builds/rejections.ts"
import type { WithdrawSize } from "../../../src/domain/builds/requests.ts"
import type { AcceptedWithdrawal, WithdrawBuildResponse } from "../../../src/domain/builds/responses.ts"
import { buildWithdrawTransaction } from "../../../src/domain/builds/withdraw.ts"
import { buildWithdraw } from "../../../src/ntbundle/builders/index.ts"
import { findAssociatedTokenAddress } from "../../../src/ntbundle/pdas.ts"
import { alice, context, makeWorld, mint, NOW, program, vault, wallet, type World, type WorldSpec } from "../../../src/bench/support/buildWorld.ts"
import { afterComputeBudget, expectWellFormedBuild, legacy } from "./wellFormed.ts"

const withdrawIn = (world: World, size: WithdrawSize = { withdrawAll: true }, priorityFee: bigint | null = null, now = NOW): WithdrawBuildResponse =>
  Either.getOrThrow(
    buildWithdrawTransaction({
      ...context(world, { now }),
      vaultAddress: vault,
      request: { userAddress: alice, size, priorityFeeMicroLamports: priorityFee }
    })
  )

const acceptedWithdrawal = (response: WithdrawBuildResponse): AcceptedWithdrawal => {
  if (!response.validation.accepted) throw new Error(`rejected: ${JSON.stringify(response.validation.rejectionReasons)}`)
  return response as AcceptedWithdrawal
}

/** Alice holds 100 of the 1,000 shares (worth 110 at price 1.1), deposited long ago. */
const holder = (fields: Record<string, unknown> = {}): WorldSpec => ({
  positions: [{ owner: alice, fields: { shares: 100_000_000n, netDeposits: 100_000_000n, lastDepositTimestamp: NOW - 86_400n, ...fields } }]
})

describe("buildWithdrawTransaction: accepted", () => {
  it.each([
    ["withdrawAll", { withdrawAll: true } as WithdrawSize, 100_000_000n],
    ["an amount", { amount: 55_000_000n } as WithdrawSize, 50_000_000n],
    ["an amount above the position's value (takes all)", { amount: 500_000_000n } as WithdrawSize, 100_000_000n]
  ])("%s: compute budget, idempotent ATA create, request_withdrawal as the ntbundle builder makes them", (_, size, shares) => {
    const world = makeWorld(holder())
    const build = acceptedWithdrawal(withdrawIn(world, size))
    const tx = expectWellFormedBuild(build, alice, program)
    expect(tx.instructions.map((ix) => ix.decoded?.name)).toEqual([
      "SetComputeUnitLimit",
      "SetComputeUnitPrice",
      "CreateIdempotent",
      "request_withdrawal"
    ])
    const plan = Either.getOrThrow(
      buildWithdraw({
        vault: { program, bundleAddress: vault, bundle: world.bundle },
        oracle: world.oracle,
        user: alice,
        userBundleAccount: world.position(alice),
        ...size
      })
    )
    expect(afterComputeBudget(build)).toEqual(legacy(plan.instructions))
    expect(build.sharesAmount).toBe(shares.toString())
    expect(tx.instructions[3]?.decoded?.args).toEqual({ sharesAmount: shares })
  })

  it("reports the estimates: value, fee, net, cooldown and availability", () => {
    const build = acceptedWithdrawal(withdrawIn(makeWorld(holder())))
    // 100 of 1,000 shares at 1.1: 110 USDC; 30 bps fee rounded up; cooldown 1 h + 23 h × 0.1
    expect(build).toMatchObject({
      sharesAmount: "100000000",
      estimatedWithdrawalValueRaw: "110000000",
      estimatedWithdrawalFeeRaw: "330000",
      estimatedNetAmountRaw: "109670000",
      cooldownSeconds: 3_600 + 8_280,
      estimatedAvailableTimestamp: Number(NOW) + 11_880,
      userTokenAccount: findAssociatedTokenAddress(alice, mint)[0],
      signers: [alice],
      simulation: "skipped"
    })
  })

  it("the redemption schedule can push availability past the cooldown", () => {
    const world = makeWorld({
      ...holder(),
      bundle: {
        withdrawalRedemptionRequestCutoffTs: NOW + 10n,
        withdrawalRedemptionUnlockCurrentCycleTs: NOW + 7n * 86_400n,
        withdrawalRedemptionUnlockNextCycleTs: NOW + 14n * 86_400n
      }
    })
    expect(acceptedWithdrawal(withdrawIn(world)).estimatedAvailableTimestamp).toBe(Number(NOW + 7n * 86_400n))
  })

  it("the withdrawal delay counts from the last deposit", () => {
    const world = makeWorld({ ...holder({ lastDepositTimestamp: NOW - 100n }), bundle: { withdrawalDelay: 100n } })
    expect(withdrawIn(world).validation.accepted).toBe(true)
  })

  it("an unknown vault is UnknownVault", () => {
    const world = makeWorld(holder())
    const outcome = buildWithdrawTransaction({
      ...context(world),
      vaultAddress: wallet("nowhere") as Address,
      request: { userAddress: alice, size: { withdrawAll: true }, priorityFeeMicroLamports: null }
    })
    expect(Either.isLeft(outcome)).toBe(true)
  })
})

describe("buildWithdrawTransaction: policy rejections (well-formed requests, no transaction)", () => {
  const all: WithdrawSize = { withdrawAll: true }
  const cases: ReadonlyArray<readonly [RejectionCode, WorldSpec, WithdrawSize]> = [
    ["USER_BUNDLE_ACCOUNT_NOT_FOUND", {}, all],
    ["VAULT_PAUSED", { ...holder(), temp: { pausedDepositsWithdrawals: true } }, all],
    ["PENDING_DEPOSIT_EXISTS", holder({ pendingDeposit: 1_000_000n }), all],
    ["WITHDRAWAL_ALREADY_PENDING", holder({ pendingShares: 5n, estimatedPendingWithdrawalValue: 6n }), all],
    ["WITHDRAWAL_ALREADY_PENDING", holder({ pendingShares: 5n }), all],
    ["WITHDRAWAL_SHARES_ZERO", holder({ shares: 0n }), all],
    // 1 raw unit buys less than one share unit at price 1.1
    ["WITHDRAWAL_SHARES_ZERO", holder(), { amount: 1n }],
    ["WITHDRAWAL_DELAY_NOT_MET", { ...holder({ lastDepositTimestamp: NOW - 99n }), bundle: { withdrawalDelay: 100n } }, all],
    ["WITHDRAWAL_VALUE_TOO_SMALL", { ...holder(), bundle: { bundleUnderlyingBalance: 0n }, oracle: { averageExternalEquity: 0n } }, all],
    ["ORACLE_DATA_NOT_FOUND", { ...holder(), oracle: null }, all],
    ["BUNDLE_TEMP_DATA_NOT_FOUND", { ...holder(), temp: null }, all]
  ]
  it.each(cases)("%s", (code, spec, size) => {
    const response = withdrawIn(makeWorld(spec), size)
    expect(response.validation).toEqual({ accepted: false, rejectionReasons: [{ code, message: expect.any(String) }] })
    expect(response).not.toHaveProperty("transactionBase64")
    expect(response).not.toHaveProperty("sharesAmount")
  })
})

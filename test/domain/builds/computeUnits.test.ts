import { describe, expect, it } from "@effect/vitest"
import { estimateComputeUnitLimit } from "../../../src/domain/builds/computeUnits.ts"
import { createAssociatedTokenAccountIdempotentIx } from "../../../src/ntbundle/ix/associatedToken.ts"
import { setComputeUnitLimitIx } from "../../../src/ntbundle/ix/computeBudget.ts"
import { memoIx } from "../../../src/ntbundle/ix/memo.ts"
import { requestDepositIx, requestWithdrawalIx } from "../../../src/ntbundle/ix/user.ts"
import { NTBUNDLE_DEVNET_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { alice, mint, program, treasury, vault } from "../../../src/bench/support/buildWorld.ts"

describe("estimateComputeUnitLimit", () => {
  const deposit = requestDepositIx({ program, bundle: vault, user: alice, assetMint: mint, treasury, amount: 1n })

  it("sums per-instruction budgets, adds a quarter and rounds up to a thousand", () => {
    // (150 + 60,000) × 1.25 = 75,187.5 -> 76,000
    expect(estimateComputeUnitLimit([setComputeUnitLimitIx(0), deposit])).toBe(76_000)
    // covers the ~45.7k the captured devnet deposit was given
    expect(estimateComputeUnitLimit([setComputeUnitLimitIx(0), deposit])).toBeGreaterThan(45_699)
  })

  it("knows the devnet program, the ATA and memo programs, and caps at 1.4M", () => {
    const devnetWithdraw = requestWithdrawalIx({ program: NTBUNDLE_DEVNET_PROGRAM_ID, bundle: vault, user: alice, sharesAmount: 1n })
    const ata = createAssociatedTokenAccountIdempotentIx({ payer: alice, owner: alice, mint })
    expect(estimateComputeUnitLimit([devnetWithdraw, ata])).toBe(100_000)
    expect(estimateComputeUnitLimit([memoIx("x".repeat(40))])).toBe(13_000)
    expect(estimateComputeUnitLimit(Array.from({ length: 20 }, () => ({ programAddress: mint })))).toBe(1_400_000)
  })
})

import { afterAll, describe, expect, it } from "@effect/vitest"
import { AccountRole } from "@solana/kit"
import { Either } from "effect"
import {
  decodeBundle,
  decodeBundleTempData,
  decodeOracleData,
  decodeReferrerAccount,
  decodeUserBundleAccount,
  type Bundle,
  type UserBundleAccount
} from "../../src/ntbundle/accounts.ts"
import {
  BUILD_REJECTION_CODES,
  buildAttributedDeposit,
  buildBuilderClaim,
  buildBuilderRegistration,
  buildDeposit,
  buildWithdraw,
  parseAmountRaw,
  type BuildRejection,
  type BuildRejectionCode,
  type VaultRef
} from "../../src/ntbundle/builders/index.ts"
import {
  applyFeesToUserIx,
  attributionMemoText,
  initializeBundleDepositorIx,
  memoIx,
  netPendingTransactionsIx,
  processDepositIx,
  processReferrerWithdrawalIx,
  processWithdrawalIx,
  referrerRequestWithdrawIx,
  refundDepositIx,
  registerReferrerIx,
  requestDepositIx,
  processSwitchIx,
  requestBundleSwitchIx,
  requestWithdrawalIx,
  setComputeUnitLimitIx,
  setComputeUnitPriceIx,
  setUserReferrerIx,
  updateOracleIx,
  type BuiltInstruction
} from "../../src/ntbundle/ix/index.ts"
import { deriveBundleAccounts, findAssociatedTokenAddress, findReferrerPda, findUserBundlePda } from "../../src/ntbundle/pdas.ts"
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  COMPUTE_BUDGET_PROGRAM_ID,
  MEMO_PROGRAM_ID,
  SYSTEM_PROGRAM_ID,
  TOKEN_PROGRAM_ID
} from "../../src/ntbundle/programs.ts"
import { addr, compact, golden, hexBytes, right } from "./golden.ts"

const g = golden.builders
const program = addr(g.program)
const user = addr(g.user)
const referrer = addr(g.referrer)
const bundle = right(decodeBundle(hexBytes(golden.accounts.Bundle.hex)))
const oracle = right(decodeOracleData(hexBytes(golden.accounts.OracleData.hex)))
const referrerAccount = right(decodeReferrerAccount(hexBytes(golden.accounts.ReferrerAccount.hex)))
const tempData = right(decodeBundleTempData(hexBytes(golden.accounts.BundleTempData.hex)))
/** The withdraw user of the vectors: 2_000_000_000 shares, no pending requests. */
const position = right(decodeUserBundleAccount(hexBytes(golden.accounts.UserBundleAccount.hex)))
/** A position that never moved funds and has no referrer. */
const virginPosition: UserBundleAccount = {
  ...position,
  shares: 0n,
  netDeposits: 0n,
  totalFeeCharged: 0n,
  lastDepositTimestamp: 0n,
  referrer: SYSTEM_PROGRAM_ID
}
/** The builder's own position: it exists and meets the vault's builder minimum of 0. */
const referrerPosition: UserBundleAccount = { ...virginPosition, owner: referrer, netDeposits: 0n }

const vault: VaultRef = { program, bundleAddress: addr(g.bundle), bundle }
const vaultWith = (changes: Partial<Bundle>): VaultRef => ({ ...vault, bundle: { ...bundle, ...changes } })

const reached = new Set<BuildRejectionCode>()
const rejection = <A>(result: Either.Either<A, BuildRejection>): BuildRejection => {
  if (Either.isRight(result)) throw new Error("expected a rejection, got a plan")
  reached.add(result.left.code)
  expect(result.left._tag).toBe("BuildRejection")
  expect(result.left.message.length).toBeGreaterThan(0)
  return result.left
}

const attributedInput = {
  vault,
  user,
  userBundleAccount: null,
  amount: BigInt(g.attributedDepositFreshUser.amount),
  referrer,
  referrerAccount,
  referrerUserBundleAccount: referrerPosition
} as const

describe("deposit", () => {
  it("fresh user: initialize_bundle_depositor then request_deposit, exactly as the official SDK", () => {
    const plan = right(buildDeposit({ vault, user, userBundleAccount: null, amount: BigInt(g.depositFreshUser.amount) }))
    expect(plan.instructions.map(compact)).toEqual(g.depositFreshUser.instructions)
    expect(plan.initializesUserAccount).toBe(true)
    expect([plan.grossAmount, plan.feeAmount, plan.netAmount]).toEqual([100_000_000n, 0n, 100_000_000n])
  })

  it("existing user: request_deposit only; the fee uses the user's effective rate", () => {
    const withFee = { ...position, customDepositFeeBps: 50, feeOverrideFlags: 1 }
    const plan = right(buildDeposit({ vault, user, userBundleAccount: withFee, amount: 100_000_000n }))
    expect(plan.instructions.map(compact)).toEqual([g.depositFreshUser.instructions[1]])
    expect([plan.feeAmount, plan.netAmount]).toEqual([500_000n, 99_500_000n])
  })

  it("a custom source token account replaces the ATA", () => {
    const source = addr("1111111111111111111111111111111N")
    const plan = right(buildDeposit({ vault, user, userBundleAccount: position, amount: 6_000_000n, userTokenAccount: source }))
    expect(plan.instructions[0]?.accounts[1]).toEqual({ address: source, role: AccountRole.WRITABLE })
  })

  it("rejections: amount, missing vault, paused, permissioned, below minimum", () => {
    const base = { vault, user, userBundleAccount: null, amount: 100_000_000n }
    expect(rejection(buildDeposit({ ...base, amount: 0n })).code).toBe("INVALID_AMOUNT_RAW")
    expect(rejection(buildDeposit({ ...base, amount: 2n ** 64n })).code).toBe("INVALID_AMOUNT_RAW")
    expect(rejection(buildDeposit({ ...base, vault: { ...vault, bundle: null } })).code).toBe("BUNDLE_ACCOUNT_NOT_FOUND")
    expect(
      rejection(buildDeposit({ ...base, bundleTempData: { ...tempData, pausedDepositsWithdrawals: true } })).code
    ).toBe("VAULT_PAUSED")
    expect(rejection(buildDeposit({ ...base, vault: vaultWith({ permissionned: true }) })).code).toBe("BUNDLE_IS_PERMISSIONED")
    expect(right(buildDeposit({ ...base, userBundleAccount: position, vault: vaultWith({ permissionned: true }) })).instructions).toHaveLength(1)
    const low = rejection(buildDeposit({ ...base, amount: 4_999_999n }))
    expect(low.code).toBe("MIN_DEPOSIT_AMOUNT_NOT_MET")
    expect(right(buildDeposit({ ...base, amount: 5_000_000n })).grossAmount).toBe(5_000_000n)
    expect(tempData.pausedDepositsWithdrawals).toBe(true) // the golden temp data is paused
    expect(right(buildDeposit({ ...base, bundleTempData: { ...tempData, pausedDepositsWithdrawals: false } })).instructions).toHaveLength(2)
  })

  it("parses wire amounts strictly", () => {
    expect(right(parseAmountRaw("1000000"))).toBe(1_000_000n)
    expect(right(parseAmountRaw("18446744073709551615"))).toBe(2n ** 64n - 1n)
    for (const bad of ["", "0", "01", "-1", "1.5", "1e6", " 1", "18446744073709551616", "0x10"]) {
      expect(rejection(parseAmountRaw(bad)).code).toBe("INVALID_AMOUNT_RAW")
    }
  })
})

describe("attributed first deposit", () => {
  it("fresh user: init, set_user_referrer, request_deposit, memo — exactly as the official SDK", () => {
    const plan = right(buildAttributedDeposit(attributedInput))
    expect(plan.instructions.map(compact)).toEqual(g.attributedDepositFreshUser.instructions)
    expect(plan.memoText).toBe(g.memo.utf8)
    expect(plan.instructions[3]?.programAddress).toBe(g.memo.program)
    expect(Buffer.from(plan.instructions[3]!.data).toString("utf8")).toBe(g.memo.utf8)
    expect(plan.instructions[3]?.accounts).toEqual([])
  })

  it("an existing position without activity is attributed without init", () => {
    const plan = right(buildAttributedDeposit({ ...attributedInput, userBundleAccount: virginPosition }))
    expect(plan.instructions.map(compact)).toEqual(g.attributedDepositFreshUser.instructions.slice(1))
    expect(plan.initializesUserAccount).toBe(false)
  })

  it("rejections follow the SDK's rule order", () => {
    const a = attributedInput
    expect(rejection(buildAttributedDeposit({ ...a, amount: 0n })).code).toBe("INVALID_AMOUNT_RAW")
    expect(rejection(buildAttributedDeposit({ ...a, vault: { ...vault, bundle: null } })).code).toBe("BUNDLE_ACCOUNT_NOT_FOUND")

    const tooLow = rejection(buildAttributedDeposit({ ...a, amount: 4_999_999n }))
    expect(tooLow.code).toBe("BUILDER_DEPOSIT_AMOUNT_TOO_LOW")
    expect(tooLow.requiredGrossDepositAmount).toBe(5_000_000n)

    expect(rejection(buildAttributedDeposit({ ...a, vault: vaultWith({ referrerEnabled: false }) })).code).toBe("REFERRALS_DISABLED")
    for (const bad of [SYSTEM_PROGRAM_ID, bundle.manager, user]) {
      expect(rejection(buildAttributedDeposit({ ...a, referrer: bad })).code).toBe("INVALID_REFERRER")
    }

    const already = rejection(buildAttributedDeposit({ ...a, userBundleAccount: position }))
    expect(already.code).toBe("REFERRAL_ALREADY_SET")
    expect(already.existingReferrer).toBe(referrer)

    for (const activity of [{ shares: 1n }, { pendingDeposit: 1n }, { pendingShares: 1n }, { estimatedPendingWithdrawalValue: 1n }, { netDeposits: -1n }, { totalFeeCharged: 1n }, { lastDepositTimestamp: 1n }]) {
      expect(rejection(buildAttributedDeposit({ ...a, userBundleAccount: { ...virginPosition, ...activity } })).code).toBe(
        "USER_BUNDLE_ACCOUNT_HAS_ACTIVITY"
      )
    }

    expect(rejection(buildAttributedDeposit({ ...a, referrerAccount: null })).code).toBe("REFERRER_NOT_REGISTERED")
    expect(rejection(buildAttributedDeposit({ ...a, referrerAccount: { ...referrerAccount, active: false } })).code).toBe(
      "REFERRER_DEACTIVATED"
    )
    expect(rejection(buildAttributedDeposit({ ...a, referrerUserBundleAccount: null })).code).toBe("REFERRER_DEPOSIT_TOO_LOW")
    expect(
      rejection(buildAttributedDeposit({ ...a, vault: vaultWith({ referrerMinDepositAmount: 1n }) })).code
    ).toBe("REFERRER_DEPOSIT_TOO_LOW")
  })
})

describe("withdraw", () => {
  const base = { vault, oracle, user, userBundleAccount: position } as const

  it("idempotent ATA create for the payout account, then request_withdrawal with the computed shares", () => {
    const plan = right(buildWithdraw({ ...base, amount: BigInt(g.withdraw.amount) }))
    expect(plan.sharesAmount).toBe(BigInt(g.withdraw.sharesAmount))
    expect(compact(plan.instructions[1]!)).toEqual(g.withdraw.requestWithdrawal)
    const [ata] = findAssociatedTokenAddress(user, bundle.assetAddress)
    expect(plan.userTokenAccount).toBe(ata)
    expect(compact(plan.instructions[0]!)).toEqual({
      program: ASSOCIATED_TOKEN_PROGRAM_ID,
      accounts: [
        [user, AccountRole.WRITABLE_SIGNER],
        [ata, AccountRole.WRITABLE],
        [user, AccountRole.READONLY],
        [bundle.assetAddress, AccountRole.READONLY],
        [SYSTEM_PROGRAM_ID, AccountRole.READONLY],
        [TOKEN_PROGRAM_ID, AccountRole.READONLY]
      ],
      dataHex: "01"
    })
    expect(plan.estimatedValueRaw).toBe((49_494_949n * 99_000_000_000n) / 98_000_000_000n)
  })

  it("withdrawAll requests every share", () => {
    const plan = right(buildWithdraw({ ...base, withdrawAll: true }))
    expect(plan.sharesAmount).toBe(2_000_000_000n)
    expect(Buffer.from(plan.instructions[1]!.data.subarray(8)).readBigUInt64LE(0)).toBe(2_000_000_000n)
  })

  it("rejections", () => {
    expect(rejection(buildWithdraw({ ...base, amount: 0n })).code).toBe("INVALID_AMOUNT_RAW")
    expect(rejection(buildWithdraw({ ...base, amount: 1n, vault: { ...vault, bundle: null } })).code).toBe("BUNDLE_ACCOUNT_NOT_FOUND")
    expect(rejection(buildWithdraw({ ...base, amount: 1n, oracle: null })).code).toBe("ORACLE_DATA_NOT_FOUND")
    expect(
      rejection(buildWithdraw({ ...base, amount: 1n, bundleTempData: { ...tempData, pausedDepositsWithdrawals: true } })).code
    ).toBe("VAULT_PAUSED")
    expect(rejection(buildWithdraw({ ...base, withdrawAll: true, userBundleAccount: null })).code).toBe("USER_BUNDLE_ACCOUNT_NOT_FOUND")
    expect(rejection(buildWithdraw({ ...base, withdrawAll: true, userBundleAccount: { ...position, pendingDeposit: 1n } })).code).toBe(
      "PENDING_DEPOSIT_EXISTS"
    )
    expect(
      rejection(buildWithdraw({ ...base, withdrawAll: true, userBundleAccount: { ...position, estimatedPendingWithdrawalValue: 1n } })).code
    ).toBe("WITHDRAWAL_ALREADY_PENDING")
    // 1 raw unit is worth less than one share at a price above 1.0
    expect(rejection(buildWithdraw({ ...base, amount: 1n })).code).toBe("WITHDRAWAL_SHARES_ZERO")
    expect(rejection(buildWithdraw({ ...base, withdrawAll: true, userBundleAccount: { ...position, shares: 0n } })).code).toBe(
      "WITHDRAWAL_SHARES_ZERO"
    )
  })
})

describe("builder registration", () => {
  const base = { vault, referrer, referrerAccount: null, referrerUserBundleAccount: referrerPosition } as const

  it("minimum already met: a single register_referrer, exactly as the official SDK", () => {
    const plan = right(buildBuilderRegistration(base))
    expect(plan.kind).toBe(g.registrationZeroMin.kind)
    if (plan.kind !== "single-transaction") throw new Error("unreachable")
    expect(plan.instructions.map(compact)).toEqual(g.registrationZeroMin.instructions)
    expect(plan.depositAmount).toBeNull()
  })

  it("no position yet: initialize_bundle_depositor first; with a deposit: the deposit instructions first", () => {
    const init = right(buildBuilderRegistration({ ...base, referrerUserBundleAccount: null }))
    if (init.kind !== "single-transaction") throw new Error("expected one transaction")
    expect(init.instructions.map((ix) => Buffer.from(ix.data.subarray(0, 8)).toString("hex"))).toEqual([
      "7e06f22416d12302",
      "7ae5d7a96491c678"
    ])
    const withDeposit = right(buildBuilderRegistration({ ...base, referrerUserBundleAccount: null, depositAmount: 7_000_000n }))
    if (withDeposit.kind !== "single-transaction") throw new Error("expected one transaction")
    expect(withDeposit.instructions.map((ix) => Buffer.from(ix.data.subarray(0, 8)).toString("hex"))).toEqual([
      "7e06f22416d12302",
      "f3cac5d78761d56d",
      "7ae5d7a96491c678"
    ])
    expect(withDeposit.depositAmount).toBe(7_000_000n)
  })

  it("minimum not met: a deposit sized for the shortfall at the effective fee, then register after netting", () => {
    const min = 100_000_000n
    const position = { ...referrerPosition, netDeposits: 30_000_000n, pendingDeposit: 10_000_000n, customDepositFeeBps: 50, feeOverrideFlags: 1 }
    const plan = right(buildBuilderRegistration({ ...base, vault: vaultWith({ referrerMinDepositAmount: min }), referrerUserBundleAccount: position }))
    if (plan.kind !== "netting-required") throw new Error("expected netting-required")
    expect(plan.netDepositShortfall).toBe(70_000_000n)
    // 60 USDC still needed net; ceil(60e6 × 10000 / 9950) gross
    expect(plan.depositStep?.depositAmount).toBe(60_301_508n)
    expect(plan.registerInstructions.map(compact)).toEqual(
      right(buildBuilderRegistration(base)).kind === "single-transaction" ? g.registrationZeroMin.instructions : []
    )
    // the vault minimum is the floor of the deposit step
    const small = right(buildBuilderRegistration({ ...base, vault: vaultWith({ referrerMinDepositAmount: 31_000_000n }), referrerUserBundleAccount: { ...position, pendingDeposit: 0n } }))
    if (small.kind !== "netting-required") throw new Error("expected netting-required")
    expect(small.depositStep?.depositAmount).toBe(5_000_000n)
    // pending deposits that cover the shortfall: nothing to deposit, just wait for netting
    const covered = right(buildBuilderRegistration({ ...base, vault: vaultWith({ referrerMinDepositAmount: 40_000_000n }), referrerUserBundleAccount: position }))
    if (covered.kind !== "netting-required") throw new Error("expected netting-required")
    expect(covered.depositStep).toBeNull()
  })

  it("rejections", () => {
    expect(rejection(buildBuilderRegistration({ ...base, vault: { ...vault, bundle: null } })).code).toBe("BUNDLE_ACCOUNT_NOT_FOUND")
    expect(rejection(buildBuilderRegistration({ ...base, vault: vaultWith({ referrerEnabled: false }) })).code).toBe("REFERRALS_DISABLED")
    expect(rejection(buildBuilderRegistration({ ...base, referrer: bundle.manager })).code).toBe("INVALID_REFERRER")
    expect(rejection(buildBuilderRegistration({ ...base, referrerAccount })).code).toBe("REFERRER_ALREADY_REGISTERED")
    expect(rejection(buildBuilderRegistration({ ...base, referrerAccount: { ...referrerAccount, active: false } })).code).toBe(
      "REFERRER_DEACTIVATED"
    )
    expect(rejection(buildBuilderRegistration({ ...base, depositAmount: 1_000_000n })).code).toBe("MIN_DEPOSIT_AMOUNT_NOT_MET")
    expect(
      rejection(
        buildBuilderRegistration({
          ...base,
          vault: vaultWith({ referrerMinDepositAmount: 1n }),
          referrerUserBundleAccount: { ...referrerPosition, customDepositFeeBps: 10_000, feeOverrideFlags: 1 }
        })
      ).code
    ).toBe("INVALID_FEE_CONFIG")
  })
})

describe("builder claim", () => {
  const base = { vault, oracle, referrer, referrerAccount, now: BigInt(g.claim.now) } as const

  it("claims all accrued shares with value and availability, exactly as the official SDK", () => {
    const plan = right(buildBuilderClaim(base))
    expect(plan.instructions.map(compact)).toEqual(g.claim.instructions)
    expect(plan.sharesToWithdraw).toBe(BigInt(g.claim.sharesToWithdraw))
    expect(plan.estimatedWithdrawalValueRaw).toBe(BigInt(g.claim.estimatedWithdrawalValueRaw))
    expect(plan.estimatedAvailableTimestamp).toBe(BigInt(g.claim.estimatedAvailableTimestamp))
  })

  it("a deactivated builder can still claim", () => {
    expect(right(buildBuilderClaim({ ...base, referrerAccount: { ...referrerAccount, active: false } })).sharesToWithdraw).toBe(4242n)
  })

  it("rejections", () => {
    expect(rejection(buildBuilderClaim({ ...base, vault: { ...vault, bundle: null } })).code).toBe("BUNDLE_ACCOUNT_NOT_FOUND")
    expect(rejection(buildBuilderClaim({ ...base, referrerAccount: null })).code).toBe("REFERRER_NOT_REGISTERED")
    expect(rejection(buildBuilderClaim({ ...base, referrer: user })).code).toBe("REFERRER_ACCOUNT_MISMATCH")
    expect(rejection(buildBuilderClaim({ ...base, vault: { ...vault, bundleAddress: addr("8TqrZmyiWQ3F3WysiBaBQC1Nzj1LDn5AR7JjXBYzFxxQ") } })).code).toBe(
      "REFERRER_ACCOUNT_MISMATCH"
    )
    expect(rejection(buildBuilderClaim({ ...base, referrerAccount: { ...referrerAccount, estimatedPendingWithdrawalValue: 10n } })).code).toBe(
      "WITHDRAWAL_ALREADY_PENDING"
    )
    expect(rejection(buildBuilderClaim({ ...base, referrerAccount: { ...referrerAccount, accruedMfeeShares: 0n } })).code).toBe(
      "NO_ACCRUED_REFERRAL_SHARES"
    )
    expect(rejection(buildBuilderClaim({ ...base, oracle: null })).code).toBe("ORACLE_DATA_NOT_FOUND")
    expect(rejection(buildBuilderClaim({ ...base, vault: vaultWith({ totalShares: 0n }) })).code).toBe("WITHDRAWAL_VALUE_TOO_SMALL")
    expect(
      rejection(buildBuilderClaim({ ...base, vault: vaultWith({ bundleUnderlyingBalance: 0n }), oracle: { ...oracle, averageExternalEquity: 0n } })).code
    ).toBe("WITHDRAWAL_VALUE_TOO_SMALL")
  })
})

describe("instruction builders match the IDL", () => {
  const keeper = addr("1111111111111111111111111111111D")
  const bundleAddress = vault.bundleAddress
  const mint = bundle.assetAddress
  const target = { program, bundle: bundleAddress }
  const roleOf = (flags: string): AccountRole =>
    flags === "WS" ? AccountRole.WRITABLE_SIGNER : flags === "S" ? AccountRole.READONLY_SIGNER : flags === "W" ? AccountRole.WRITABLE : AccountRole.READONLY
  const built: Record<string, BuiltInstruction> = {
    initialize_bundle_depositor: initializeBundleDepositorIx({ ...target, payer: user, authority: user }),
    set_user_referrer: setUserReferrerIx({ ...target, user, referrer }),
    request_deposit: requestDepositIx({ ...target, user, assetMint: mint, treasury: bundle.treasuryAccount, amount: 1n }),
    request_withdrawal: requestWithdrawalIx({ ...target, user, sharesAmount: 5n }),
    register_referrer: registerReferrerIx({ ...target, referrer }),
    referrer_request_withdraw: referrerRequestWithdrawIx({ ...target, referrer }),
    net_pending_transactions: netPendingTransactionsIx({ ...target, keeper, assetMint: mint }),
    process_deposit: processDepositIx({ ...target, keeper, assetMint: mint, owner: user }),
    process_withdrawal: processWithdrawalIx({ ...target, keeper, assetMint: mint, owner: user, treasury: bundle.treasuryAccount }),
    process_referrer_withdrawal: processReferrerWithdrawalIx({ ...target, keeper, assetMint: mint, referrer }),
    apply_fees_to_user: applyFeesToUserIx({ ...target, keeper, owner: user }),
    update_oracle: updateOracleIx({ ...target, keeper, newEquity: 97_500_000_000n }),
    refund_deposit: refundDepositIx({ ...target, keeper, assetMint: mint, owner: user })
  }

  for (const [name, flags] of Object.entries(golden.idlAccountFlags)) {
    it(`${name}: account count and roles`, () => {
      const ix = built[name]
      expect(ix, `no builder for ${name}`).toBeDefined()
      expect(ix!.programAddress).toBe(program)
      expect(ix!.accounts.map((meta) => meta.role)).toEqual(flags.map(([, f]) => roleOf(f)))
    })
  }

  it("keeper instructions derive the vault accounts by name", () => {
    const derived = deriveBundleAccounts(program, bundleAddress, mint)
    const [userBundle] = findUserBundlePda(program, user, bundleAddress)
    const byName = (name: string, ix: BuiltInstruction) =>
      Object.fromEntries(golden.idlAccountFlags[name]!.map(([account], i) => [account, ix.accounts[i]?.address]))
    expect(byName("process_deposit", built.process_deposit!)).toEqual({
      keeper,
      user_bundle_account: userBundle,
      pending_deposit_token_account: derived.pendingDepositTokenAccount,
      user_bundle_account_owner: user,
      asset_address: mint,
      bundle_asset_account: derived.bundleAssetTokenAccount,
      bundle_account: bundleAddress,
      bundle_temp_data: derived.bundleTempData,
      oracle_data: derived.oracleData,
      pending_bundle_asset_authority: derived.pendingBundleAssetAuthority,
      bundle_asset_authority: derived.bundleAssetAuthority,
      token_program: TOKEN_PROGRAM_ID,
      system_program: SYSTEM_PROGRAM_ID
    })
    expect(byName("process_referrer_withdrawal", built.process_referrer_withdrawal!)).toMatchObject({
      referrer,
      referrer_token_account: findAssociatedTokenAddress(referrer, mint)[0],
      referrer_account: findReferrerPda(program, bundleAddress, referrer)[0]
    })
    expect(byName("process_withdrawal", built.process_withdrawal!)).toMatchObject({
      user_token_account: findAssociatedTokenAddress(user, mint)[0],
      treasury_account: bundle.treasuryAccount
    })
  })

  it("instruction data: discriminator and Borsh args", () => {
    const hex = (ix: BuiltInstruction) => Buffer.from(ix.data).toString("hex")
    expect(hex(built.net_pending_transactions!)).toBe("2cdb3213f6fc25a3")
    expect(hex(built.process_deposit!)).toBe("88a2402354c8fe88")
    expect(hex(built.process_withdrawal!)).toBe("3361ec112521c440")
    expect(hex(built.process_referrer_withdrawal!)).toBe("4e8599cafb9792e3")
    expect(hex(built.apply_fees_to_user!)).toBe("1a2967a73d938d1e")
    expect(hex(built.refund_deposit!)).toBe("13134e32bb0aa2e5")
    expect(hex(built.update_oracle!)).toBe("7029d112f8e2fcbc" + "00ef73b316000000")
    expect(hex(built.request_withdrawal!)).toBe("fb5579cd38c90cb1" + "05" + "00".repeat(15))
  })

  it("keeper instructions append remaining accounts after the IDL list", () => {
    const extra = { address: findReferrerPda(program, bundleAddress, referrer)[0], role: AccountRole.WRITABLE }
    const ix = applyFeesToUserIx({ ...target, keeper, owner: user, remainingAccounts: [extra] })
    expect(ix.accounts).toHaveLength(golden.idlAccountFlags.apply_fees_to_user!.length + 1)
    expect(ix.accounts.at(-1)).toEqual(extra)
  })

  it("switch instructions: the IDL's account roles (not in the golden fixture) and data", () => {
    // Roles from the IDL (request_bundle_switch: the request_withdrawal group, then the target
    // vault and the user's position there; process_switch: source accounts, then the target's).
    const targetBundle = addr("1111111111111111111111111111111E")
    const request = requestBundleSwitchIx({ ...target, user, targetBundle, sharesAmount: 5n })
    expect(request.accounts.map((meta) => meta.role)).toEqual(["WS", "W", "W", "W", "W", "R", "R", "R", "R", "R"].map(roleOf))
    expect(request.accounts.slice(0, 8)).toEqual(built.request_withdrawal!.accounts)
    expect(request.accounts.slice(8).map((meta) => meta.address)).toEqual([targetBundle, findUserBundlePda(program, user, targetBundle)[0]])
    expect(Buffer.from(request.data).toString("hex")).toBe("4209686fe3fb33b0" + "05" + "00".repeat(15))
    const targetTreasury = addr("1111111111111111111111111111111F")
    const process = processSwitchIx({ ...target, keeper, assetMint: mint, owner: user, treasury: bundle.treasuryAccount, targetBundle, targetTreasury })
    expect(process.accounts.map((meta) => meta.role)).toEqual(
      ["WS", "R", "W", "W", "W", "W", "W", "W", "W", "W", "W", "R", "W", "W", "W", "R", "R", "W", "R", "R"].map(roleOf)
    )
    const source = deriveBundleAccounts(program, bundleAddress, mint)
    const destination = deriveBundleAccounts(program, targetBundle, mint)
    expect(process.accounts.map((meta) => meta.address)).toEqual([
      keeper, user, findAssociatedTokenAddress(user, mint)[0], mint, source.bundleAssetTokenAccount, findUserBundlePda(program, user, bundleAddress)[0],
      bundle.treasuryAccount, source.bundleAssetAuthority, bundleAddress, source.bundleTempData, source.oracleData,
      targetBundle, findUserBundlePda(program, user, targetBundle)[0], destination.bundleTempData, destination.pendingDepositTokenAccount,
      destination.pendingBundleAssetAuthority, destination.oracleData, targetTreasury, TOKEN_PROGRAM_ID, SYSTEM_PROGRAM_ID
    ])
    expect(Buffer.from(process.data).toString("hex")).toBe("baaa0042685139c3")
  })

  it("compute budget and memo instructions", () => {
    expect(compact(setComputeUnitLimitIx(45_699))).toEqual({ program: COMPUTE_BUDGET_PROGRAM_ID, accounts: [], dataHex: "0283b20000" })
    expect(compact(setComputeUnitPriceIx(1_000_000n))).toEqual({ program: COMPUTE_BUDGET_PROGRAM_ID, accounts: [], dataHex: "0340420f0000000000" })
    // every byte of the little-endian arguments, the top ones included
    expect(compact(setComputeUnitLimitIx(0xfedc_ba98)).dataHex).toBe("0298badcfe")
    expect(compact(setComputeUnitPriceIx(0xf102_0304_0506_0708n)).dataHex).toBe("0308070605040302f1")
    expect(compact(setComputeUnitPriceIx(2n ** 64n - 1n)).dataHex).toBe(`03${"ff".repeat(8)}`)
    expect(() => setComputeUnitLimitIx(2 ** 32)).toThrow(RangeError)
    expect(() => setComputeUnitPriceIx(-1n)).toThrow(RangeError)
    const memo = memoIx(attributionMemoText(referrer))
    expect(compact(memo)).toEqual({
      program: MEMO_PROGRAM_ID,
      accounts: [],
      dataHex: g.attributedDepositFreshUser.instructions[3]!.dataHex
    })
  })
})

afterAll(() => {
  // every code a builder can return is reached by some test above
  expect([...reached].sort()).toEqual([...BUILD_REJECTION_CODES].sort())
})

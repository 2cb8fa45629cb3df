import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Either } from "effect"
import { buildDepositTransaction, type DepositBuildInput } from "../../../src/domain/builds/deposit.ts"
import type { RejectionCode } from "../../../src/domain/builds/rejections.ts"
import type { AttributionTarget } from "../../../src/domain/builds/requests.ts"
import type { AcceptedDeposit, DepositBuildResponse } from "../../../src/domain/builds/responses.ts"
import { buildAttributedDeposit, buildDeposit } from "../../../src/ntbundle/builders/index.ts"
import {
  alice,
  bob,
  builder,
  context,
  eligibleBuilder,
  makeWorld,
  manager,
  program,
  vault,
  wallet,
  withSpecs,
  type World,
  type WorldSpec
} from "../../../src/bench/support/buildWorld.ts"
import { afterComputeBudget, expectWellFormedBuild, legacy } from "./wellFormed.ts"

interface DepositCase {
  readonly amount?: bigint
  readonly user?: Address
  readonly attribution?: AttributionTarget | null
  readonly requireAttribution?: boolean
  readonly priorityFee?: bigint | null
  readonly codeReferrer?: Address | null
  readonly balance?: bigint | null
}

const depositIn = (world: World, c: DepositCase = {}): DepositBuildResponse => {
  const input: DepositBuildInput = {
    ...context(world),
    vaultAddress: vault,
    request: {
      userAddress: c.user ?? alice,
      amount: c.amount ?? 5_000_000n,
      attribution: c.attribution ?? null,
      requireAttribution: c.requireAttribution ?? false,
      priorityFeeMicroLamports: c.priorityFee ?? null
    },
    codeReferrer: c.codeReferrer ?? null,
    userTokenBalance: c.balance ?? null
  }
  return Either.getOrThrow(buildDepositTransaction(input))
}

const acceptedDeposit = (response: DepositBuildResponse): AcceptedDeposit => {
  if (!response.validation.accepted) throw new Error(`rejected: ${JSON.stringify(response.validation.rejectionReasons)}`)
  return response as AcceptedDeposit
}

const rejectionCodes = (response: DepositBuildResponse): ReadonlyArray<RejectionCode> =>
  response.validation.rejectionReasons.map((r) => r.code)

const byReferrer = (referrer: Address): AttributionTarget => ({ kind: "referrer", referrer })

describe("buildDepositTransaction: accepted", () => {
  it("first deposit: compute budget, initialize_bundle_depositor, request_deposit, as the ntbundle builder makes them", () => {
    const world = makeWorld()
    const build = acceptedDeposit(depositIn(world))
    const tx = expectWellFormedBuild(build, alice, program)
    expect(tx.instructions.map((ix) => ix.decoded?.name)).toEqual([
      "SetComputeUnitLimit",
      "SetComputeUnitPrice",
      "initialize_bundle_depositor",
      "request_deposit"
    ])
    const expected = Either.getOrThrow(
      buildDeposit({ vault: { program, bundleAddress: vault, bundle: world.bundle }, user: alice, userBundleAccount: null, amount: 5_000_000n })
    )
    expect(afterComputeBudget(build)).toEqual(legacy(expected.instructions))
    expect(build).toMatchObject({
      vaultAddress: vault,
      userAddress: alice,
      validation: { accepted: true, rejectionReasons: [] },
      blockhash: context(world).blockhash.blockhash,
      lastValidBlockHeight: 123_456_789,
      signers: [alice],
      priorityFeeMicroLamports: "5000",
      simulation: "skipped",
      amountRaw: "5000000",
      feeAmountRaw: "5000",
      netAmountRaw: "4995000",
      initializesUserAccount: true
    })
    // estimate with margin: above the ~85k the instructions are budgeted at, far below the 1.4M cap
    expect(build.computeUnitLimit).toBeGreaterThanOrEqual(85_000)
    expect(build.computeUnitLimit).toBeLessThanOrEqual(150_000)
    expect(build).not.toHaveProperty("attribution")
  })

  it("repeat deposit with an explicit zero price: no price instruction, no initialisation", () => {
    const world = makeWorld({ positions: [{ owner: alice, fields: { shares: 5_000_000n, netDeposits: 5_000_000n } }] })
    const build = acceptedDeposit(depositIn(world, { priorityFee: 0n }))
    const tx = expectWellFormedBuild(build, alice, program)
    expect(tx.instructions.map((ix) => ix.decoded?.name)).toEqual(["SetComputeUnitLimit", "request_deposit"])
    expect(build.priorityFeeMicroLamports).toBe("0")
    expect(build.initializesUserAccount).toBe(false)
    const expected = Either.getOrThrow(
      buildDeposit({
        vault: { program, bundleAddress: vault, bundle: world.bundle },
        user: alice,
        userBundleAccount: world.position(alice),
        amount: 5_000_000n
      })
    )
    expect(afterComputeBudget(build)).toEqual(legacy(expected.instructions))
  })

  it("a user deposit-fee override applies to fee and net", () => {
    const world = makeWorld({ positions: [{ owner: alice, fields: { feeOverrideFlags: 1, customDepositFeeBps: 0 } }] })
    expect(acceptedDeposit(depositIn(world))).toMatchObject({ feeAmountRaw: "0", netAmountRaw: "5000000" })
  })

  it.each([
    ["a referrer wallet", byReferrer(builder), null, { applied: true, referrer: builder }],
    ["a code", { kind: "code", code: "ACME" } as const, builder, { applied: true, referrer: builder, code: "ACME" }]
  ])("attributed first deposit by %s: ..., set_user_referrer, request_deposit, memo", (_, attribution, codeReferrer, expected) => {
    const world = makeWorld(eligibleBuilder)
    const build = acceptedDeposit(depositIn(world, { attribution, codeReferrer, requireAttribution: true }))
    const tx = expectWellFormedBuild(build, alice, program)
    expect(tx.instructions.map((ix) => ix.decoded?.name)).toEqual([
      "SetComputeUnitLimit",
      "SetComputeUnitPrice",
      "initialize_bundle_depositor",
      "set_user_referrer",
      "request_deposit",
      "Memo"
    ])
    expect(build.attribution).toEqual(expected)
    const plan = Either.getOrThrow(
      buildAttributedDeposit({
        vault: { program, bundleAddress: vault, bundle: world.bundle },
        user: alice,
        userBundleAccount: null,
        amount: 5_000_000n,
        referrer: builder,
        referrerAccount: world.registration(builder),
        referrerUserBundleAccount: world.position(builder),
        bundleTempData: world.temp
      })
    )
    expect(afterComputeBudget(build)).toEqual(legacy(plan.instructions))
  })

  it("an untouched existing position can still be attributed (no initialisation)", () => {
    const world = makeWorld(withSpecs(eligibleBuilder, { positions: [{ owner: alice }] }))
    const build = acceptedDeposit(depositIn(world, { attribution: byReferrer(builder), requireAttribution: true }))
    const tx = expectWellFormedBuild(build, alice, program)
    expect(tx.instructions.map((ix) => ix.decoded?.name).slice(1)).toEqual(["SetComputeUnitPrice", "set_user_referrer", "request_deposit", "Memo"])
  })

  it("a position already bound to the requested builder: plain deposit, even when strict", () => {
    const world = makeWorld(withSpecs(eligibleBuilder, { positions: [{ owner: alice, fields: { referrer: builder, shares: 1n } }] }))
    for (const requireAttribution of [false, true]) {
      const build = acceptedDeposit(depositIn(world, { attribution: byReferrer(builder), requireAttribution }))
      const tx = expectWellFormedBuild(build, alice, program)
      expect(tx.instructions.map((ix) => ix.decoded?.name)).toEqual(["SetComputeUnitLimit", "SetComputeUnitPrice", "request_deposit"])
      expect(build.attribution).toEqual({
        applied: false,
        reason: "REFERRAL_ALREADY_SET",
        existingReferrer: builder,
        existingReferrerMatchesRequest: true
      })
    }
  })

  it("a balance that covers the amount passes", () => {
    expect(depositIn(makeWorld(), { balance: 5_000_000n }).validation.accepted).toBe(true)
  })

  it("an unknown vault is not an answer but UnknownVault", () => {
    const world = makeWorld()
    const outcome = buildDepositTransaction({
      ...context(world),
      vaultAddress: wallet("nowhere"),
      request: { userAddress: alice, amount: 5_000_000n, attribution: null, requireAttribution: false, priorityFeeMicroLamports: null },
      codeReferrer: null,
      userTokenBalance: null
    })
    expect(Either.isLeft(outcome) && outcome.left.code).toBe("VAULT_NOT_FOUND")
  })
})

describe("buildDepositTransaction: policy rejections (well-formed requests, no transaction)", () => {
  const cases: ReadonlyArray<readonly [RejectionCode, WorldSpec, DepositCase]> = [
    ["VAULT_PAUSED", { temp: { pausedDepositsWithdrawals: true } }, {}],
    ["MIN_DEPOSIT_AMOUNT_NOT_MET", {}, { amount: 999_999n }],
    // equity 1,100 + pending 50 + net 49.95 > cap 1,199
    ["MAX_DEPOSIT_AMOUNT_EXCEEDED", { bundle: { maxDepositAmount: 1_199_000_000n }, temp: { cumulativePendingDeposits: 50_000_000n } }, { amount: 50_000_000n }],
    ["BUNDLE_IS_PERMISSIONED", { bundle: { permissionned: true } }, {}],
    ["NETTING_IN_PROGRESS", { temp: { isNettingDone: true } }, {}],
    ["INSUFFICIENT_TOKEN_BALANCE", {}, { balance: 4_999_999n }],
    ["ORACLE_DATA_NOT_FOUND", { oracle: null }, {}],
    ["BUNDLE_TEMP_DATA_NOT_FOUND", { temp: null }, {}]
  ]
  it.each(cases)("%s", (code, spec, c) => {
    const response = depositIn(makeWorld(spec), c)
    expect(response.validation).toEqual({ accepted: false, rejectionReasons: [{ code, message: expect.any(String) }] })
    expect(response).not.toHaveProperty("transactionBase64")
    expect(response).not.toHaveProperty("instructions")
  })

  it("the cap counts net deposits: exactly filling it is accepted", () => {
    // 1,100 equity + 50 pending + 49.95 net = 1,199.95
    const world = makeWorld({ bundle: { maxDepositAmount: 1_199_950_000n }, temp: { cumulativePendingDeposits: 50_000_000n } })
    expect(depositIn(world, { amount: 50_000_000n }).validation.accepted).toBe(true)
  })

  it("a permissioned vault still takes deposits from an existing position", () => {
    const world = makeWorld({ bundle: { permissionned: true }, positions: [{ owner: alice }] })
    expect(depositIn(world).validation.accepted).toBe(true)
  })
})

describe("buildDepositTransaction: attribution failures", () => {
  const otherBuilder = wallet("other-builder")
  const cases: ReadonlyArray<readonly [string, WorldSpec, DepositCase, Record<string, unknown>]> = [
    ["UNKNOWN_CODE", eligibleBuilder, { attribution: { kind: "code", code: "NOPE" }, codeReferrer: null }, {}],
    ["INVALID_REFERRER_CODE", eligibleBuilder, { attribution: { kind: "code", code: "" } }, {}],
    ["REFERRALS_DISABLED", withSpecs(eligibleBuilder, { bundle: { referrerEnabled: false } }), {}, {}],
    ["INVALID_REFERRER", eligibleBuilder, { attribution: byReferrer(manager) }, {}],
    ["INVALID_REFERRER", eligibleBuilder, { attribution: byReferrer(alice) }, {}],
    [
      "REFERRAL_ALREADY_SET",
      withSpecs(eligibleBuilder, { positions: [{ owner: alice, fields: { referrer: otherBuilder } }] }),
      {},
      { existingReferrer: otherBuilder, existingReferrerMatchesRequest: false }
    ],
    ["USER_BUNDLE_ACCOUNT_HAS_ACTIVITY", withSpecs(eligibleBuilder, { positions: [{ owner: alice, fields: { shares: 1n } }] }), {}, {}],
    ["REFERRER_NOT_REGISTERED", { positions: eligibleBuilder.positions! }, {}, {}],
    ["REFERRER_DEACTIVATED", { positions: eligibleBuilder.positions!, registrations: [{ referrer: builder, fields: { active: false } }] }, {}, {}],
    ["REFERRER_DEPOSIT_TOO_LOW", { registrations: [{ referrer: builder }] }, {}, {}],
    [
      "REFERRER_DEPOSIT_TOO_LOW",
      withSpecs(eligibleBuilder, { bundle: { referrerMinDepositAmount: 10_000_001n } }),
      {},
      {}
    ]
  ]

  it.each(cases)("strict %s: ATTRIBUTION_REQUIRED with the reason, no transaction", (reason, spec, c, details) => {
    const response = depositIn(makeWorld(spec), { attribution: byReferrer(builder), ...c, requireAttribution: true })
    expect(rejectionCodes(response)).toEqual(["ATTRIBUTION_REQUIRED"])
    expect(response).toMatchObject({ attribution: { applied: false, reason, ...details } })
    expect(response).not.toHaveProperty("transactionBase64")
  })

  it.each(cases)("non-strict %s: an unattributed deposit, attribution.applied false", (reason, spec, c, details) => {
    const world = makeWorld(spec)
    const build = acceptedDeposit(depositIn(world, { attribution: byReferrer(builder), ...c }))
    expect(build.attribution).toEqual({ applied: false, reason, ...details })
    const tx = expectWellFormedBuild(build, alice, program)
    const names = tx.instructions.map((ix) => ix.decoded?.name)
    expect(names).not.toContain("set_user_referrer")
    expect(names).not.toContain("Memo")
    const plain = Either.getOrThrow(
      buildDeposit({ vault: { program, bundleAddress: vault, bundle: world.bundle }, user: alice, userBundleAccount: world.position(alice), amount: 5_000_000n })
    )
    expect(afterComputeBudget(build)).toEqual(legacy(plain.instructions))
  })

  it("a policy refusal of the deposit itself wins over attribution", () => {
    const response = depositIn(makeWorld(withSpecs(eligibleBuilder, { temp: { pausedDepositsWithdrawals: true } })), {
      attribution: byReferrer(builder),
      requireAttribution: true
    })
    expect(rejectionCodes(response)).toEqual(["VAULT_PAUSED"])
  })

  it("bob's deposit does not see alice's position", () => {
    const world = makeWorld({ positions: [{ owner: alice, fields: { shares: 1n } }] })
    expect(acceptedDeposit(depositIn(world, { user: bob })).initializesUserAccount).toBe(true)
  })
})

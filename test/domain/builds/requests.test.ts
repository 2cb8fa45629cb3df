import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import { buildDepositTransaction } from "../../../src/domain/builds/deposit.ts"
import { MalformedRequest, type MalformedRequestCode } from "../../../src/domain/builds/errors.ts"
import {
  codeToResolve,
  parseDepositPreviewQuery,
  parseDepositRequest,
  parseWithdrawPreviewQuery,
  parseWithdrawRequest
} from "../../../src/domain/builds/requests.ts"
import { buildWithdrawTransaction } from "../../../src/domain/builds/withdraw.ts"
import { previewDeposit, previewWithdraw } from "../../../src/domain/builds/previews.ts"
import { findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import { alice, builder, context, eligibleBuilder, makeWorld, NOW, program, vault, withSpecs } from "../../../src/bench/support/buildWorld.ts"

/** A program address: a valid base58 key that is off the curve. */
const offCurve = findUserBundlePda(program, alice, vault)[0]

const malformedCode = <A>(parsed: Either.Either<A, MalformedRequest>): MalformedRequestCode | "parsed" =>
  Either.isLeft(parsed) ? parsed.left.code : "parsed"

describe("parseDepositRequest", () => {
  it("parses the facts §10.5 shapes", () => {
    expect(Either.getOrThrow(parseDepositRequest({ userAddress: alice, amountRaw: "1000000" }))).toEqual({
      userAddress: alice,
      amount: 1_000_000n,
      attribution: null,
      requireAttribution: false,
      priorityFeeMicroLamports: null
    })
    expect(
      Either.getOrThrow(parseDepositRequest({ userAddress: alice, amountRaw: "5", referrer: builder, requireAttribution: true, priorityFeeMicroLamports: "7" }))
    ).toMatchObject({ attribution: { kind: "referrer", referrer: builder }, requireAttribution: true, priorityFeeMicroLamports: 7n })
    const coded = Either.getOrThrow(parseDepositRequest({ userAddress: alice, amountRaw: "5", code: "  ACME " }))
    expect(coded.attribution).toEqual({ kind: "code", code: "ACME" })
    expect(codeToResolve(coded)).toBe("ACME")
    // null optional fields count as absent; a number price is accepted when safe
    expect(
      Either.getOrThrow(parseDepositRequest({ userAddress: alice, amountRaw: "5", code: null, referrer: null, priorityFeeMicroLamports: 12 }))
    ).toMatchObject({ attribution: null, priorityFeeMicroLamports: 12n })
    expect(Either.getOrThrow(parseDepositRequest({ userAddress: alice, amountRaw: "18446744073709551615" })).amount).toBe(2n ** 64n - 1n)
  })

  it.each<readonly [MalformedRequestCode, unknown]>([
    ["INVALID_BODY", "not an object"],
    ["INVALID_BODY", null],
    ["INVALID_BODY", [alice, "5"]],
    ["INVALID_BODY", 42],
    ["UNKNOWN_FIELD", { userAddress: alice, amountRaw: "5", amount: "5" }],
    ["UNKNOWN_FIELD", { userAddress: alice, amountRaw: "5", withdrawAll: true }],
    ["MISSING_FIELD", { amountRaw: "5" }],
    ["MISSING_FIELD", { userAddress: alice }],
    ["MISSING_FIELD", { userAddress: alice, amountRaw: "5", requireAttribution: true }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: "0" }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: "007" }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: "1.5" }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: "-1" }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: " 5" }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: "1e6" }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: "18446744073709551616" }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: 5 }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: null }],
    ["INVALID_USER_ADDRESS", { userAddress: "not-base58-0OIl", amountRaw: "5" }],
    ["INVALID_USER_ADDRESS", { userAddress: `${alice}1`, amountRaw: "5" }],
    ["INVALID_USER_ADDRESS", { userAddress: 7, amountRaw: "5" }],
    ["USER_ADDRESS_OFF_CURVE", { userAddress: offCurve, amountRaw: "5" }],
    ["CONFLICTING_FIELDS", { userAddress: alice, amountRaw: "5", code: "ACME", referrer: builder }],
    ["INVALID_REFERRER_ADDRESS", { userAddress: alice, amountRaw: "5", referrer: "x" }],
    ["INVALID_CODE", { userAddress: alice, amountRaw: "5", code: 12 }],
    ["INVALID_CODE", { userAddress: alice, amountRaw: "5", code: "X".repeat(65) }],
    ["INVALID_FIELD", { userAddress: alice, amountRaw: "5", referrer: builder, requireAttribution: "yes" }],
    ["INVALID_PRIORITY_FEE", { userAddress: alice, amountRaw: "5", priorityFeeMicroLamports: -1 }],
    ["INVALID_PRIORITY_FEE", { userAddress: alice, amountRaw: "5", priorityFeeMicroLamports: 1.5 }],
    ["INVALID_PRIORITY_FEE", { userAddress: alice, amountRaw: "5", priorityFeeMicroLamports: "18446744073709551616" }],
    ["INVALID_PRIORITY_FEE", { userAddress: alice, amountRaw: "5", priorityFeeMicroLamports: "01" }]
  ])("%s: %j", (code, body) => {
    const parsed = parseDepositRequest(body)
    expect(malformedCode(parsed)).toBe(code)
    if (Either.isLeft(parsed)) expect(parsed.left).toBeInstanceOf(MalformedRequest)
  })

  it("an empty code is well-formed: it fails the attribution, not the request", () => {
    const parsed = Either.getOrThrow(parseDepositRequest({ userAddress: alice, amountRaw: "5", code: "   " }))
    expect(parsed.attribution).toEqual({ kind: "code", code: "" })
    expect(codeToResolve(parsed)).toBeNull()
  })
})

describe("parseWithdrawRequest", () => {
  it("parses an amount or withdrawAll", () => {
    expect(Either.getOrThrow(parseWithdrawRequest({ userAddress: alice, amountRaw: "10" })).size).toEqual({ amount: 10n })
    expect(Either.getOrThrow(parseWithdrawRequest({ userAddress: alice, withdrawAll: true })).size).toEqual({ withdrawAll: true })
  })

  it.each<readonly [MalformedRequestCode, unknown]>([
    ["INVALID_BODY", "[]"],
    ["MISSING_FIELD", { userAddress: alice }],
    ["MISSING_FIELD", { withdrawAll: true }],
    ["CONFLICTING_FIELDS", { userAddress: alice, amountRaw: "10", withdrawAll: true }],
    ["INVALID_FIELD", { userAddress: alice, withdrawAll: false }],
    ["INVALID_FIELD", { userAddress: alice, withdrawAll: "true" }],
    ["UNKNOWN_FIELD", { userAddress: alice, withdrawAll: true, code: "ACME" }],
    ["INVALID_AMOUNT_RAW", { userAddress: alice, amountRaw: "0" }],
    ["USER_ADDRESS_OFF_CURVE", { userAddress: offCurve, withdrawAll: true }],
    ["INVALID_PRIORITY_FEE", { userAddress: alice, withdrawAll: true, priorityFeeMicroLamports: {} }]
  ])("%s: %j", (code, body) => {
    expect(malformedCode(parseWithdrawRequest(body))).toBe(code)
  })
})

describe("preview queries", () => {
  it("parse and refuse like the builders", () => {
    expect(Either.getOrThrow(parseDepositPreviewQuery({ amountRaw: "10" }))).toEqual({ amount: 10n })
    expect(Either.getOrThrow(parseWithdrawPreviewQuery({ sharesRaw: "340282366920938463463374607431768211455" }))).toEqual({
      shares: 2n ** 128n - 1n
    })
    expect(Either.getOrThrow(parseWithdrawPreviewQuery({ amountRaw: "10" }))).toEqual({ amount: 10n })
    expect(malformedCode(parseDepositPreviewQuery({}))).toBe("MISSING_FIELD")
    expect(malformedCode(parseDepositPreviewQuery({ amountRaw: ["1", "2"] }))).toBe("INVALID_FIELD")
    expect(malformedCode(parseDepositPreviewQuery({ amount: "1" }))).toBe("UNKNOWN_FIELD")
    expect(malformedCode(parseWithdrawPreviewQuery({ sharesRaw: "1", amountRaw: "1" }))).toBe("CONFLICTING_FIELDS")
    expect(malformedCode(parseWithdrawPreviewQuery({}))).toBe("MISSING_FIELD")
    expect(malformedCode(parseWithdrawPreviewQuery({ sharesRaw: "340282366920938463463374607431768211456" }))).toBe("INVALID_SHARES_RAW")
    expect(malformedCode(parseWithdrawPreviewQuery({ sharesRaw: "0" }))).toBe("INVALID_SHARES_RAW")
  })
})

describe("fuzz: random bodies never throw", () => {
  const world = makeWorld(
    withSpecs(eligibleBuilder, {
      positions: [{ owner: alice, fields: { shares: 100_000_000n, lastDepositTimestamp: NOW - 86_400n } }]
    })
  )
  const nearValue = FastCheck.oneof(
    FastCheck.constantFrom(alice, builder, offCurve, "0", "1", "5000000", "18446744073709551615", "18446744073709551616", "", " ACME", true, false, null),
    FastCheck.bigInt({ min: 0n, max: 2n ** 70n }).map(String),
    FastCheck.jsonValue()
  )
  const keys = ["userAddress", "amountRaw", "code", "referrer", "requireAttribution", "withdrawAll", "priorityFeeMicroLamports", "sharesRaw", "x"]
  const nearBody = FastCheck.dictionary(FastCheck.constantFrom(...keys), nearValue, { maxKeys: 6 })
  const amount = FastCheck.oneof(FastCheck.bigInt({ min: 0n, max: 2n ** 65n }).map(String), FastCheck.constantFrom("5000000", "999999"))
  const options = FastCheck.record(
    { requireAttribution: FastCheck.boolean(), priorityFeeMicroLamports: FastCheck.oneof(FastCheck.nat().map(String), FastCheck.integer()) },
    { requiredKeys: [] }
  )
  const user = FastCheck.constantFrom(alice, alice, builder, offCurve)
  const attribution = FastCheck.oneof(
    FastCheck.constant({}),
    FastCheck.constantFrom("ACME", "", "  ").map((code) => ({ code })),
    FastCheck.constantFrom(builder, alice).map((referrer) => ({ referrer }))
  )
  const depositLike = FastCheck.tuple(user, amount, attribution, options).map(([userAddress, amountRaw, target, rest]) => ({
    userAddress,
    amountRaw,
    ...target,
    ...rest
  }))
  const withdrawLike = FastCheck.tuple(user, FastCheck.oneof(amount.map((amountRaw) => ({ amountRaw })), FastCheck.constant({ withdrawAll: true })))
    .map(([userAddress, size]) => ({ userAddress, ...size }))
  const mostlyValid = FastCheck.oneof(depositLike, withdrawLike)
  const body = FastCheck.oneof(
    { arbitrary: mostlyValid, weight: 4 },
    { arbitrary: nearBody, weight: 4 },
    { arbitrary: FastCheck.record({ userAddress: FastCheck.constant(alice), amountRaw: nearValue }), weight: 2 },
    { arbitrary: FastCheck.jsonValue(), weight: 1 },
    { arbitrary: FastCheck.anything(), weight: 1 }
  )

  it("deposit, withdraw and preview paths answer with MalformedRequest or a result", () => {
    let built = 0
    let refused = 0
    FastCheck.assert(
      FastCheck.property(body, (input) => {
        const deposit = parseDepositRequest(input)
        if (Either.isRight(deposit)) {
          const response = Either.getOrThrow(
            buildDepositTransaction({
              ...context(world),
              vaultAddress: vault,
              request: deposit.right,
              codeReferrer: codeToResolve(deposit.right) === null ? null : builder,
              userTokenBalance: null
            })
          )
          if (response.validation.accepted) built++
          else refused++
        } else expect(deposit.left).toBeInstanceOf(MalformedRequest)
        const withdraw = parseWithdrawRequest(input)
        if (Either.isRight(withdraw)) {
          Either.getOrThrow(buildWithdrawTransaction({ ...context(world), vaultAddress: vault, request: withdraw.right }))
        } else expect(withdraw.left).toBeInstanceOf(MalformedRequest)
        const depositPreview = parseDepositPreviewQuery(input)
        if (Either.isRight(depositPreview)) {
          Either.getOrThrow(previewDeposit({ state: world.state, vaultAddress: vault, now: NOW, request: depositPreview.right, processingIntervalSeconds: 3_600 }))
        }
        const withdrawPreview = parseWithdrawPreviewQuery(input)
        if (Either.isRight(withdrawPreview)) {
          Either.getOrThrow(previewWithdraw({ state: world.state, vaultAddress: vault, now: NOW, request: withdrawPreview.right }))
        }
      }),
      { numRuns: 5_000 }
    )
    // the generator must reach the builders, both ways, for the property to mean much
    expect(built).toBeGreaterThan(150)
    expect(refused).toBeGreaterThan(150)
  })
})

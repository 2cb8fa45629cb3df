import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { servedWorld } from "./servedWorld.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { gatewayForTest, serverUrl } from "../../../src/bench/support/httpTestServer.ts"
import { liveStatus } from "../../../src/bench/support/projectionTest.ts"
import { alice, builder, eligibleBuilder, NOW, vault, withSpecs, type WorldSpec } from "../../../src/bench/support/buildWorld.ts"

// Every policy refusal of the issue, reached over HTTP with a well-formed request: 200,
// success:true, validation.accepted:false with the reason, and no transaction. The served
// projection is rewritten between cases like ingestion would (the accounts of a fresh world).
// INSUFFICIENT_TOKEN_BALANCE needs the chain's token account: buildsSandbox.db.test.ts reaches it.
const { served, become } = servedWorld(1_000_000)

/** Alice holds 100 shares, deposited a day before the chain's time. */
const holder = (fields: Record<string, unknown> = {}): WorldSpec => ({
  positions: [{ owner: alice, fields: { shares: 100_000_000n, netDeposits: 100_000_000n, lastDepositTimestamp: NOW - 86_400n, ...fields } }]
})

/** The last element: the world once the condition is gone (default: alice holds, builder eligible, no constraint). */
type Case = readonly [code: string, kind: "deposit" | "withdraw", spec: WorldSpec, body: Record<string, unknown>, lifted?: WorldSpec]
const deposit = { userAddress: alice, amountRaw: "5000000" }
const withdrawAll = { userAddress: alice, withdrawAll: true }
const cases: ReadonlyArray<Case> = [
  ["VAULT_PAUSED", "deposit", { temp: { pausedDepositsWithdrawals: true } }, deposit],
  ["VAULT_PAUSED", "withdraw", { ...holder(), temp: { pausedDepositsWithdrawals: true } }, withdrawAll],
  ["MIN_DEPOSIT_AMOUNT_NOT_MET", "deposit", {}, { userAddress: alice, amountRaw: "999999" }, withSpecs(holder(), { bundle: { minDepositAmount: 1n } })],
  ["MAX_DEPOSIT_AMOUNT_EXCEEDED", "deposit", { bundle: { maxDepositAmount: 1_101_000_000n } }, deposit],
  ["BUNDLE_IS_PERMISSIONED", "deposit", { bundle: { permissionned: true } }, deposit],
  ["USER_BUNDLE_ACCOUNT_NOT_FOUND", "withdraw", {}, withdrawAll],
  ["WITHDRAWAL_SHARES_ZERO", "withdraw", holder({ shares: 0n }), withdrawAll],
  ["PENDING_DEPOSIT_EXISTS", "withdraw", holder({ pendingDeposit: 1_000_000n }), withdrawAll],
  ["WITHDRAWAL_ALREADY_PENDING", "withdraw", holder({ pendingShares: 5n }), { userAddress: alice, amountRaw: "1000000" }],
  ["WITHDRAWAL_DELAY_NOT_MET", "withdraw", { ...holder({ lastDepositTimestamp: NOW - 99n }), bundle: { withdrawalDelay: 100n } }, withdrawAll],
  ["ATTRIBUTION_REQUIRED", "deposit", { positions: eligibleBuilder.positions! }, { ...deposit, referrer: builder, requireAttribution: true }, eligibleBuilder],
  [
    "ATTRIBUTION_REQUIRED",
    "deposit",
    withSpecs(eligibleBuilder, { bundle: { referrerEnabled: false } }),
    { ...deposit, referrer: builder, requireAttribution: true },
    eligibleBuilder
  ]
]

describe("policy refusals over HTTP", () => {
  layer(gatewayForTest({ initial: liveStatus(100), state: served, buildsPerMinute: 1_000_000 }), { excludeTestServices: true })((it) => {
    it.effect("each reason: 200, accepted:false with the reason, no transaction; the same request is accepted once the condition is gone", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const build = (kind: string, body: object) =>
          fetchJson(`${url}/v2/vault/${vault}/tx/${kind}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body)
          })
        for (const [code, kind, spec, body, lifted = withSpecs(holder(), eligibleBuilder)] of cases) {
          become(spec)
          const refused = yield* build(kind, body)
          expect(refused.status, code).toBe(200)
          expect(refused.body.success).toBe(true)
          expect(refused.body.data.validation.accepted, code).toBe(false)
          expect(refused.body.data.validation.rejectionReasons, code).toEqual([{ code, message: expect.any(String) }])
          for (const field of ["transactionBase64", "instructions", "blockhash", "signers", "computeUnitLimit", "sharesAmount"]) {
            expect(refused.body.data, `${code} ${field}`).not.toHaveProperty(field)
          }
          if (code === "ATTRIBUTION_REQUIRED") {
            expect(refused.body.data.attribution).toMatchObject({ applied: false, reason: expect.any(String) })
          }
          // the same request against an unconstrained vault with a plain holding: accepted
          become(lifted)
          const accepted = yield* build(kind, body)
          expect(accepted.body.data.validation, `${code} lifted`).toEqual({ accepted: true, rejectionReasons: [] })
        }
      }))
  })
})

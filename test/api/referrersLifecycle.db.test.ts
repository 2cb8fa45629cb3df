import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Duration, Effect, Layer } from "effect"
import { CohortEventLogLive } from "../../layers/postgres/CohortEventLogLive.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { Projection } from "../../services/Projection.ts"
import { NoPricesLive } from "../../layers/memory/PricesLive.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { ReferrersApi } from "../../src/api/referrers/ReferrersApi.ts"
import { ReferrersHandlersLive } from "../../src/api/referrers/ReferrersHandlers.ts"
import { ReferrerPayoutsLive } from "../../layers/postgres/ReferrerPayoutsLive.ts"
import { encodeOracleData } from "../../src/ntbundle/accounts.ts"
import { REFERRER_WITHDRAWAL_PROCESSED_DISCRIMINATOR } from "../../src/ntbundle/generated/events.ts"
import { referrerRequestWithdrawIx } from "../../src/ntbundle/ix/user.ts"
import { findOraclePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { unsignedV0TransactionBase64 } from "../../src/tx/compileV0.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { ingestLayer, sandboxCall, scenarioSandbox, stepSlots } from "../support/ingestHarness.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { sandboxWallets, signAndSend } from "./builds/sandboxSigning.ts"

const ReportingApi = HttpApi.make("vault-gateway").add(ReferrersApi).addError(BadRequestResponse).addError(InternalErrorResponse)
const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }

const VAULT_ID = 76
const UNIT = 1_000_000n // the vault's asset has 6 decimals
const TIER_0 = 100_000n * UNIT
const TIER_1 = 1_000_000n * UNIT
const scenario = {
  seed: 31, users: 8, builders: 2, activity: 0, keeperIntervalSlots: 2, vaultIds: [VAULT_ID],
  // One vault, a quick cooldown, no deposit fee, a 20 %/yr management fee (so accrual shows within a
  // simulated day), an unchecked oracle buffer and a two-step ladder far above the seeded deposits.
  configureVault: (config: any) => ({
    ...config,
    depositFeeBps: 0,
    managementFeeBps: 2_000,
    withdrawalDelaySeconds: 0n,
    withdrawalTMinSeconds: 1n,
    withdrawalTMaxSeconds: 2n,
    oracleBufferBps: 0n,
    referral: { minDepositAmount: 0n, tiers: [{ threshold: TIER_0, mfeeBps: 1_000, pfeeBps: 0 }, { threshold: TIER_1, mfeeBps: 2_000, pfeeBps: 0 }] }
  })
}

describe("builder reporting through a claim and tier moves on the sandbox chain", () => {
  it.live("tier up on a referred deposit; claim requested -> pending, no payout; settled -> payout with its signature; withdrawal after a gain -> tier down, negative counter", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const { rpcUrl, wsUrl } = sandbox.handle
      const chain = sandbox.scenario.chain
      const actions = sandbox.scenario.actions
      const ingest = yield* Layer.build(ingestLayer(rpcUrl, wsUrl, NTBUNDLE_PROGRAM_ID))
      const projection = Context.get(ingest, Projection)
      for (let i = 0; i < 1_000 && (yield* projection.status).status !== "live"; i++) {
        yield* stepSlots(sandbox, 1)
        yield* Effect.sleep(Duration.millis(20))
      }
      expect((yield* projection.status).status).toBe("live")
      const handlers = ReferrersHandlersLive.pipe(Layer.provide(Layer.merge(ReferrerPayoutsLive, CohortEventLogLive)))
      const routes = ApiRoutesLive(ReportingApi).pipe(Layer.provide(Layer.merge(handlers, PartnerKeyStandIn)), Layer.provide(NoPricesLive))
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const url = Context.get(server, HttpListener).url

      const [vault] = sandbox.scenario.vaults.map((planned) => planned.config.address)
      const builder = sandbox.scenario.buildersByVault.get(vault!)?.[0]
      expect(builder).toBeDefined()
      const B = builder!.keypair.address
      const V = vault! as Address
      const vaultState = () => actions.vault(V)!
      const truthCounter = () => actions.referrer(B, V)!.referredNetDeposits
      // The builder's group in the summary; null while the projection answers 503 (catching up after a resync).
      const group = Effect.map(fetchJson(`${url}/v2/referrer/${B}/summary`, keyed), (response) => {
        if (response.status === 503) return null
        expect(response.status).toBe(200)
        return response.body.data.vaults.find((entry: { vault: string }) => entry.vault === V)
      })
      const payoutSignatures = Effect.map(fetchJson(`${url}/v2/referrer/${B}/payouts?limit=100`, keyed), (response) =>
        response.body.data.payouts.map((row: { signature: string }) => row.signature) as Array<string>)
      /** Steps the chain (msPerSlot of chain time per slot) until `done` holds over HTTP. */
      const until = <A>(read: Effect.Effect<A>, done: (value: A) => boolean, msPerSlot = 400, maxSlots = 400) =>
        Effect.gen(function*() {
          for (let slots = 0; slots < maxSlots; slots++) {
            const value = yield* read
            if (value !== null && done(value)) return value
            chain.step(1, msPerSlot)
            yield* Effect.sleep(Duration.millis(15))
          }
          return yield* Effect.dieMessage(`condition not reached; projection ${JSON.stringify(yield* projection.status)}`)
        })
      /** Waits (the chain held still) until `done` holds: the event log is written after the projection applies. */
      const eventually = <A>(read: Effect.Effect<A>, done: (value: A) => boolean) =>
        Effect.gen(function*() {
          for (let i = 0; i < 400; i++) {
            const value = yield* read
            if (done(value)) return value
            yield* Effect.sleep(Duration.millis(15))
          }
          return yield* Effect.dieMessage("the event log never caught up")
        })
      /** True when the projection holds the builder's ReferrerAccount exactly as the chain does now. */
      const inSync = Effect.gen(function*() {
        const truth = actions.referrer(B, V)
        const projected = yield* projection.read((state) => {
          const address = state.registrations.get(B, V)
          return address === undefined ? null : (state.referrers.get(address)?.account ?? null)
        }).pipe(Effect.orElseSucceed(() => null))
        return truth !== null && projected !== null && truth.referredNetDeposits === projected.referredNetDeposits &&
          truth.accruedMfeeShares === projected.accruedMfeeShares && truth.accruedPfeeShares === projected.accruedPfeeShares &&
          truth.pendingWithdrawShares === projected.pendingWithdrawShares
      })
      /** Reads once the projection has caught up with the chain (the manual clock holds it still meanwhile). */
      const settled = <A>(read: Effect.Effect<A>) =>
        Effect.gen(function*() {
          for (let i = 0; i < 400 && !(yield* inSync); i++) yield* Effect.sleep(Duration.millis(15))
          expect(yield* inSync).toBe(true)
          return yield* read
        })

      // 1. Below the first threshold.
      const before = truthCounter()
      expect(before < TIER_0 / 3n).toBe(true)
      expect((yield* settled(group))?.currentTier).toBeNull()

      // 2. A new user deposits through the builder's code: the counter crosses tier 0 once the keeper processes it.
      const user = sandbox.scenario.people.users.find((person) => actions.position(person.keypair.address, V) === null)!
      const deposit = TIER_0 - before + 1_000n * UNIT
      chain.airdropTokens(user.keypair.address, vaultState().bundle.assetAddress, deposit)
      expect(actions.attributedDeposit(user.keypair, vaultState(), deposit, B)?.kind).toBe("landed")
      yield* until(group, (entry) => entry?.currentTier !== null && entry?.currentTier !== undefined)
      const up = yield* settled(group)
      const counterUp = truthCounter()
      expect(counterUp).toBe(before + deposit)
      expect(up.referredNetDeposits.raw).toBe(counterUp.toString())
      expect(up.currentTier).toEqual({ index: 0, threshold: TIER_0.toString(), mfeeBps: 1_000, pfeeBps: 0 })
      expect(up.nextTier).toEqual({ index: 1, threshold: TIER_1.toString(), remaining: (TIER_1 - counterUp).toString() })
      // /users: the binding event's rates (below tier 0 then: 0 bps, no tier), labelled historical; /flows: the deposit
      // request, and the keeper's processing of it (Allocated, attributed to the position owner by its instruction).
      // (the history backfill and the event log's write of the binding may still be under way: wait for them)
      const users = yield* eventually(fetchJson(`${url}/v2/referrer/${B}/users?vault=${V}&limit=100`, keyed), (response) =>
        response.status === 200 && response.body.data.users.every((entry: { binding: string }) => entry.binding === "recorded"))
      const row = users.body.data.users.find((entry: { user: string }) => entry.user === user.keypair.address)
      expect(row).toMatchObject({ binding: "recorded", bindTimeRates: { referralPfeeBps: 0, referralMfeeBps: 0, referralTierIndex: null } })
      expect(row.firstAttributedAt).toBeGreaterThan(0)
      for (const entry of users.body.data.users) expect(entry.binding).toBe("recorded")
      const flows = yield* eventually(fetchJson(`${url}/v2/referrer/${B}/flows?limit=5`, keyed), (response) =>
        response.status === 200 && response.body.data.flows[0]?.user === user.keypair.address && response.body.data.flows[1]?.user === user.keypair.address)
      const [processedDeposit, requestedDeposit] = flows.body.data.flows
      expect(processedDeposit).toMatchObject({
        user: user.keypair.address, vault: V, kind: "deposit", stage: "processed", amount: { raw: deposit.toString() }, estimated: false, shares: null
      })
      expect(requestedDeposit).toMatchObject({
        user: user.keypair.address, vault: V, kind: "deposit", stage: "requested", amount: { raw: deposit.toString() }
      })
      expect(processedDeposit.slot).toBeGreaterThan(requestedDeposit.slot)

      // 3. A simulated day of management fees at the tier-0 rate.
      for (let hour = 0; hour < 24; hour++) chain.step(1, 3_600_000)
      const accrued = yield* until(Effect.sync(() => actions.referrer(B, V)!), (account) => account.accruedMfeeShares > 0n)
      const payoutsBefore = yield* settled(payoutSignatures)

      // 4. The builder signs referrer_request_withdraw and sends it over RPC.
      const wallet = (yield* Effect.promise(() => sandboxWallets(rpcUrl))).find((entry) => entry.address === B)!
      const { value: { blockhash } } = yield* Effect.promise(() => sandboxCall(rpcUrl, "getLatestBlockhash"))
      const claimTx = unsignedV0TransactionBase64({
        feePayer: B,
        blockhash,
        instructions: [referrerRequestWithdrawIx({ program: NTBUNDLE_PROGRAM_ID, bundle: V, referrer: B as Address })]
      })
      yield* Effect.promise(() => signAndSend(rpcUrl, wallet, claimTx))
      const claimed = actions.referrer(B, V)!
      expect(claimed.pendingWithdrawShares).toBeGreaterThanOrEqual(accrued.accruedMfeeShares)
      const pending = yield* until(group, (entry) => entry.pendingWithdrawal !== null, 10)
      expect(pending.pendingWithdrawal.shares.raw).toBe(claimed.pendingWithdrawShares.toString())
      expect(pending.pendingWithdrawal.estimatedValue.raw).toBe(claimed.estimatedPendingWithdrawalValue.toString())
      expect(yield* payoutSignatures).toEqual(payoutsBefore)

      // 5. The keeper settles once available: the claim leaves pendingWithdrawal and becomes a payout.
      yield* until(group, (entry) => entry.pendingWithdrawal === null, 1_000)
      const cleared = yield* settled(group)
      expect(cleared.pendingWithdrawal).toBeNull()
      expect(cleared.accruedMfeeShares.raw).toBe(actions.referrer(B, V)!.accruedMfeeShares.toString())
      yield* eventually(payoutSignatures, (signatures) => signatures.length > payoutsBefore.length)
      const payouts = yield* fetchJson(`${url}/v2/referrer/${B}/payouts?limit=100`, keyed)
      expect(payouts.body.data.payouts.map((entry: { signature: string }) => entry.signature).slice(1)).toEqual(payoutsBefore)
      const payout = payouts.body.data.payouts[0]
      expect(payout).toMatchObject({ vault: V, sharesRedeemed: claimed.pendingWithdrawShares.toString() })
      const settlement = yield* Effect.promise(() => sandboxCall(rpcUrl, "getTransaction", [payout.signature, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 }]))
      const processed = Buffer.from(REFERRER_WITHDRAWAL_PROCESSED_DISCRIMINATOR).toString("base64").slice(0, 8)
      expect(settlement.meta.err).toBeNull()
      expect(settlement.meta.logMessages.some((line: string) => line.startsWith(`Program data: ${processed}`))).toBe(true)

      // 6. The strategy doubles the vault's equity, then the user withdraws everything: the counter drops by
      //    the gross redemption (more than was deposited), below tier 0 and below zero.
      const oracleAddress = findOraclePda(NTBUNDLE_PROGRAM_ID, V)[0]
      const oracle = vaultState().oracle!
      const underlying = vaultState().bundle.bundleUnderlyingBalance
      const record = chain.ledger.getAccount(oracleAddress)!
      chain.setAccount(oracleAddress, {
        ...record,
        data: encodeOracleData({ ...oracle, averageExternalEquity: 2n * (underlying + oracle.averageExternalEquity) - underlying })
      })
      expect(actions.withdraw(user.keypair, vaultState(), { withdrawAll: true })?.kind).toBe("landed")
      yield* until(group, (entry) => entry.referredNetDeposits.raw !== counterUp.toString() && entry.currentTier === null, 1_000)
      const down = yield* settled(group)
      const counterDown = truthCounter()
      expect(counterDown < 0n).toBe(true)
      expect(down.referredNetDeposits.raw).toBe(counterDown.toString())
      expect(down.referredNetDeposits.raw.startsWith("-")).toBe(true)
      expect(down.nextTier).toEqual({ index: 0, threshold: TIER_0.toString(), remaining: (TIER_0 - counterDown).toString() })
      // /flows: the request, then the keeper's Redeemed with the gross redemption the counter dropped by.
      const withdrawals = yield* eventually(fetchJson(`${url}/v2/referrer/${B}/flows?limit=5`, keyed), (response) =>
        response.body.data?.flows[0]?.kind === "withdrawal" && response.body.data?.flows[1]?.kind === "withdrawal")
      const [processedWithdrawal, requestedWithdrawal] = withdrawals.body.data.flows
      expect(processedWithdrawal).toMatchObject({
        user: user.keypair.address, vault: V, kind: "withdrawal", stage: "processed", estimated: false, shares: null,
        amount: { raw: (counterUp - counterDown).toString() }
      })
      expect(requestedWithdrawal).toMatchObject({ user: user.keypair.address, kind: "withdrawal", stage: "requested", estimated: true })
      sandbox.scenario.stop()
    }).pipe(Effect.scoped), { timeout: 150_000 })
})

import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Duration, Effect, Layer } from "effect"
import { NoPricesLive } from "../../layers/memory/PricesLive.ts"
import { PositionRequestsLive } from "../../layers/postgres/PositionRequestsLive.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { UsersApi } from "../../src/api/users/UsersApi.ts"
import { UsersHandlersLive } from "../../src/api/users/UsersHandlers.ts"
import { SETTLED_VISIBLE_SECONDS } from "../../src/domain/pendingRequests.ts"
import { eventsFromLogs, type NtEvent } from "../../src/ntbundle/events.ts"
import { netPendingTransactionsIx, processDepositIx, processWithdrawalIx, refundDepositIx } from "../../src/ntbundle/ix/keeper.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import type { SendOutcome } from "../../src/sandbox/runtime/processor.ts"
import { fromKitInstructions } from "../../src/sandbox/ntbundle/kitInstruction.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { pendingWhen as awaitPending } from "../support/pendingPoll.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { liveIngestion, scenarioSandbox } from "../support/ingestHarness.ts"

const PendingApi = HttpApi.make("vault-gateway").add(UsersApi).addError(BadRequestResponse).addError(InternalErrorResponse)
const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }

const VAULT_ID = 76
// One vault; the keeper runs only when the test sends its instructions; a deposit fee, so gross,
// fee and net differ; a short cooldown; no oracle age check (the oracle is not updated).
const scenario = {
  seed: 53, users: 6, builders: 1, activity: 0, keeperIntervalSlots: 10_000_000, vaultIds: [VAULT_ID],
  configureVault: (config: any) => ({
    ...config,
    depositFeeBps: 50,
    withdrawalDelaySeconds: 0n,
    withdrawalTMinSeconds: 20n,
    withdrawalTMaxSeconds: 40n,
    oracleMaxAgeSeconds: 0n
  })
}

/** The ntbundle events a landed sandbox transaction logged (its ground truth). */
const eventsOf = (outcome: SendOutcome | undefined): ReadonlyArray<NtEvent> => {
  if (outcome?.kind !== "landed" || outcome.record.err !== null) throw new Error(`transaction did not land: ${JSON.stringify(outcome?.kind)}`)
  return eventsFromLogs(outcome.record.logs, NTBUNDLE_PROGRAM_ID).map(({ event }) => event)
}
const eventNamed = <N extends NtEvent["name"]>(outcome: SendOutcome | undefined, name: N) =>
  eventsOf(outcome).find((event): event is Extract<NtEvent, { name: N }> => event.name === name)!

describe("pending requests: each stage from the sandbox chain's transactions", () => {
  it.live("deposit requested (topped up) -> netted -> processed or refunded; withdrawal requested -> processed", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const { chain, actions, keeper } = sandbox.scenario
      const { ingest } = yield* liveIngestion(sandbox)
      const routes = ApiRoutesLive(PendingApi).pipe(
        Layer.provide(Layer.merge(UsersHandlersLive, PartnerKeyStandIn)),
        Layer.provide(Layer.merge(NoPricesLive, PositionRequestsLive))
      )
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const url = Context.get(server, HttpListener).url

      const V = sandbox.scenario.vaults[0]!.config.address as Address
      const vault = () => actions.vault(V)!
      const mint = vault().bundle.assetAddress as Address
      const unit = 10n ** BigInt(vault().bundle.assetDecimals)
      const [alice, bob] = sandbox.scenario.people.users.filter((person) => actions.position(person.keypair.address, V) === null)
      expect(alice).toBeDefined()
      expect(bob).toBeDefined()
      const keeperSend = (instruction: Parameters<typeof fromKitInstructions>[0][number]) =>
        chain.submit({ feePayer: keeper, instructions: fromKitInstructions([instruction]) })
      const target = { program: NTBUNDLE_PROGRAM_ID, bundle: V, keeper: keeper.address as Address, assetMint: mint }

      /** The wallet's pending requests once `done` holds (the chain stepped meanwhile, so the gateway sees new slots). */
      const pendingWhen = (wallet: string, done: (data: any) => boolean) =>
        awaitPending({ url, vault: V, step: () => chain.step(1) }, wallet, done)

      // 1. Requested: two deposits of Alice (the second a top-up), one of Bob.
      for (const person of [alice!, bob!]) chain.airdropTokens(person.keypair.address, mint, 1_000n * unit)
      const first = eventNamed(actions.deposit(alice!.keypair, vault(), 100n * unit), "DepositRequested")
      chain.step(1, 5_000)
      const topUp = eventNamed(actions.deposit(alice!.keypair, vault(), 37n * unit), "DepositRequested")
      expect(topUp.data.toppingUp).toBe(true)
      const bobRequest = eventNamed(actions.deposit(bob!.keypair, vault(), 20n * unit), "DepositRequested")
      const aliceNet = first.data.netAmount + topUp.data.netAmount
      const requested = yield* pendingWhen(alice!.keypair.address, (data) => data.deposits[0]?.amounts.gross === (first.data.grossAmount + topUp.data.grossAmount).toString())
      expect(actions.position(alice!.keypair.address, V)!.pendingDeposit).toBe(aliceNet)
      expect(requested.deposits).toEqual([{
        stage: "requested",
        requestedAt: Number(first.data.timestamp),
        settledAt: null,
        cooldownEnd: null,
        etaProcessAt: null,
        amounts: {
          gross: (first.data.grossAmount + topUp.data.grossAmount).toString(),
          fee: (first.data.feeAmount + topUp.data.feeAmount).toString(),
          net: aliceNet.toString()
        }
      }])
      expect(first.data.feeAmount > 0n).toBe(true)
      expect(requested.withdrawals).toEqual([])

      // 2. Netted: the keeper moves the cycle's pending deposits into the vault.
      eventNamed(keeperSend(netPendingTransactionsIx(target)), "NettingCompleted")
      const netted = yield* pendingWhen(alice!.keypair.address, (data) => data.deposits[0]?.stage === "netted")
      expect(netted.deposits[0]).toEqual({ ...requested.deposits[0], stage: "netted" })
      const bobNetted = yield* pendingWhen(bob!.keypair.address, (data) => data.deposits[0]?.stage === "netted")
      expect(bobNetted.deposits[0]).toMatchObject({ requestedAt: Number(bobRequest.data.timestamp), amounts: { net: bobRequest.data.netAmount.toString() } })

      // 3. Processed (Alice) and refunded (Bob).
      const allocated = eventNamed(keeperSend(processDepositIx({ ...target, owner: alice!.keypair.address as Address })), "Allocated")
      const refunded = eventNamed(keeperSend(refundDepositIx({ ...target, owner: bob!.keypair.address as Address })), "RefundedDeposit")
      // The event log follows the projection by up to a checkpoint: the amounts it gives come with it.
      const settledWithLog = (stage: string) => (data: any) => data.deposits[0]?.stage === stage && data.deposits[0].amounts.gross !== undefined
      const processed = yield* pendingWhen(alice!.keypair.address, settledWithLog("processed"))
      expect(processed.deposits).toEqual([{
        stage: "processed",
        requestedAt: Number(first.data.timestamp),
        settledAt: Number(allocated.data.timestamp),
        cooldownEnd: null,
        etaProcessAt: null,
        amounts: {
          ...requested.deposits[0].amounts,
          net: allocated.data.netAmount.toString(),
          shares: (allocated.data.userSharesAfter - allocated.data.userSharesBefore).toString()
        }
      }])
      expect(allocated.data.netAmount).toBe(aliceNet)
      const bobRefunded = yield* pendingWhen(bob!.keypair.address, settledWithLog("refunded"))
      expect(bobRefunded.deposits).toEqual([{
        stage: "refunded",
        requestedAt: Number(bobRequest.data.timestamp),
        settledAt: Number(refunded.data.timestamp),
        cooldownEnd: null,
        etaProcessAt: null,
        amounts: { gross: bobRequest.data.grossAmount.toString(), fee: bobRequest.data.feeAmount.toString(), net: refunded.data.amount.toString() }
      }])

      // 4. Withdrawal requested: shares locked, the program's estimate, its availability time.
      const shares = actions.position(alice!.keypair.address, V)!.shares / 2n
      const withdrawal = eventNamed(actions.withdraw(alice!.keypair, vault(), { amount: (aliceNet * 2n) / 5n }), "WithdrawalRequested")
      const position = actions.position(alice!.keypair.address, V)!
      expect(position.pendingShares).toBe(withdrawal.data.amount)
      expect(position.pendingShares <= shares + 1n).toBe(true)
      const open = yield* pendingWhen(alice!.keypair.address, (data) => data.withdrawals[0]?.stage === "requested")
      expect(open.withdrawals).toEqual([{
        stage: "requested",
        requestedAt: Number(withdrawal.data.timestamp),
        settledAt: null,
        cooldownEnd: Number(withdrawal.data.cooldownEndTimestamp),
        etaProcessAt: Number(position.withdrawalAvailableTimestamp),
        amounts: { shares: withdrawal.data.amount.toString(), estimatedValue: withdrawal.data.estimatedPendingWithdrawalValue.toString() }
      }])
      // The processed deposit is still listed next to it (settled less than a day ago).
      expect(open.deposits[0]?.stage).toBe("processed")

      // 5. Processed once the cooldown has passed.
      chain.step(1, 60_000)
      const redeemed = eventNamed(
        keeperSend(processWithdrawalIx({ ...target, owner: alice!.keypair.address as Address, treasury: vault().bundle.treasuryAccount as Address })),
        "Redeemed"
      )
      const paid = yield* pendingWhen(alice!.keypair.address, (data) => data.withdrawals[0]?.stage === "processed")
      expect(paid.withdrawals).toEqual([{
        stage: "processed",
        requestedAt: Number(withdrawal.data.timestamp),
        settledAt: Number(redeemed.data.timestamp),
        cooldownEnd: null,
        etaProcessAt: null,
        amounts: {
          gross: redeemed.data.grossAmount.toString(),
          fee: redeemed.data.feeAmount.toString(),
          net: redeemed.data.netAmount.toString(),
          shares: withdrawal.data.amount.toString()
        }
      }])

      // 6. A day of chain time later, settled requests are no longer listed.
      chain.step(1, (SETTLED_VISIBLE_SECONDS + 60) * 1000)
      const later = yield* pendingWhen(alice!.keypair.address, (data) => data.deposits.length === 0 && data.withdrawals.length === 0)
      expect(later).toMatchObject({ user: alice!.keypair.address, vaultId: V })
    }).pipe(Effect.scoped), 180_000)
})

import { HttpApi } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Effect, Either, Layer } from "effect"
import { RateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"
import { makeJsonRpcClient } from "../../../layers/solana/jsonRpcClient.ts"
import { simulatorOn } from "../../../layers/solana/SimulatorLive.ts"
import { solanaRpcOn } from "../../../layers/solana/SolanaRpcLive.ts"
import { ApiRoutesLive } from "../../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { Blockhash } from "../../../services/Blockhash.ts"
import { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { PriorityFees } from "../../../services/PriorityFees.ts"
import { Simulator } from "../../../services/Simulator.ts"
import { TokenBalances } from "../../../services/TokenBalances.ts"
import { BuildsApi } from "../../../src/api/builds/BuildsApi.ts"
import { BuildsLive } from "../../../src/api/builds/BuildsLive.ts"
import { LegacyBuildsApi } from "../../../src/api/builds/LegacyBuildsApi.ts"
import { BadRequestResponse, HeadersTooLargeResponse, InternalErrorResponse, UriTooLongResponse } from "../../../src/api/errors.ts"
import { readPosition } from "../../../src/domain/builds/projectedAccounts.ts"
import { estimateComputeUnitLimit, simulatedComputeUnitLimit } from "../../../src/domain/builds/index.ts"
import { ProjectionState } from "../../../src/domain/projection/state.ts"
import { decodeAccount, encodeAccount } from "../../../src/ntbundle/accounts.ts"
import { findBundleTempDataPda } from "../../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { startScenarioSandbox, type ScenarioSandbox } from "../../../src/sandbox/scenario/index.ts"
import { expectWellFormedBuild } from "../../domain/builds/wellFormed.ts"
import { fromLegacy } from "../../../src/bench/support/legacyToKit.ts"
import { makeMemoryCodes } from "../../../src/bench/support/buildStandIns.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { listenForTest } from "../../../src/bench/support/httpTestServer.ts"
import { sandboxCall } from "../../support/ingestHarness.ts"
import { PartnerKeyStandIn } from "../../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionTest } from "../../../src/bench/support/projectionTest.ts"
import { sandboxWallets, signAndSend, type SandboxWallet } from "./sandboxSigning.ts"

// Server preflight against the sandbox over real sockets. The gateway's projection is a snapshot of
// the sandbox's accounts taken at the start, so a test can make the chain differ from it.
const BuildsOnlyApi = HttpApi.make("vault-gateway")
  .add(BuildsApi)
  .add(LegacyBuildsApi)
  .addError(BadRequestResponse)
  .addError(UriTooLongResponse)
  .addError(HeadersTooLargeResponse)
  .addError(InternalErrorResponse)

const AUTOPILOT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const program = NTBUNDLE_PROGRAM_ID

const simulatorAt = (url: string) => simulatorOn(solanaRpcOn(makeJsonRpcClient({ url })))

let sandbox: ScenarioSandbox
beforeAll(async () => {
  sandbox = await startScenarioSandbox({
    port: 0,
    clock: "manual",
    seed: 8,
    users: 6,
    builders: 1,
    activity: 0,
    initialPositions: 0.5,
    vaultIds: [76],
    historyDays: 0,
    bulkCacheDirectory: false
  })
}, 60_000)
afterAll(async () => {
  await sandbox?.close()
})

/** The program's accounts as the sandbox holds them now, as a projection state. */
const snapshotState = async (): Promise<ProjectionState> => {
  const snapshot = (await sandboxCall(sandbox.handle.rpcUrl, "sandbox_snapshot")) as {
    slot: number
    accounts: Array<{ address: string; owner: string; data: [string, string] }>
  }
  const state = new ProjectionState(program)
  for (const account of snapshot.accounts) {
    state.apply({ address: account.address, owner: account.owner, slot: snapshot.slot, data: new Uint8Array(Buffer.from(account.data[0], "base64")) })
  }
  return state
}

/** A gateway over that state, simulating on the sandbox (or not, without `simulator`). */
const gateway = (state: ProjectionState, simulator: Simulator["Type"] | null) =>
  Effect.gen(function*() {
    const latest = (yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "getLatestBlockhash", [{ commitment: "confirmed" }]))) as {
      context: { slot: number }
      value: { blockhash: string; lastValidBlockHeight: number }
    }
    const chain = Layer.mergeAll(
      Layer.succeed(Blockhash, Blockhash.of({ latest: Effect.succeed({ ...latest.value, slot: latest.context.slot }) })),
      Layer.succeed(PriorityFees, PriorityFees.of({ microLamportsPerComputeUnit: Effect.succeed(1_000n) })),
      Layer.succeed(TokenBalances, TokenBalances.of({ ofAssociatedAccount: () => Effect.succeed(null) })),
      Layer.sync(BuilderCodes, makeMemoryCodes),
      simulator === null ? Layer.empty : Layer.succeed(Simulator, simulator)
    )
    const routes = ApiRoutesLive(BuildsOnlyApi).pipe(
      Layer.provide(BuildsLive({ perIp: { limit: 1_000, windowSeconds: 60 }, trustProxy: false })),
      Layer.provide(Layer.mergeAll(chain, PartnerKeyStandIn, RateLimiterLive))
    )
    const server = yield* Layer.build(
      listenForTest(routes).pipe(Layer.provide(ProjectionTest({ initial: liveStatus(1_000), state })))
    )
    const url = Context.get(server, HttpListener).url
    return (kind: "deposit" | "withdraw" | "v1-deposit", body: object) =>
      fetchJson(kind === "v1-deposit" ? `${url}/api/v1/vault/76/deposit-instructions` : `${url}/v2/vault/${AUTOPILOT}/tx/${kind}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      })
  })

const simulateOnSandbox = async (transactionBase64: string) =>
  (await sandboxCall(sandbox.handle.rpcUrl, "simulateTransaction", [
    transactionBase64,
    { encoding: "base64", sigVerify: false, replaceRecentBlockhash: true }
  ])) as { value: { err: unknown; unitsConsumed: number } }

const users = async (state: ProjectionState): Promise<{ holder: SandboxWallet; newcomer: SandboxWallet }> => {
  const wallets = (await sandboxWallets(sandbox.handle.rpcUrl)).filter((wallet) => wallet.role === "user")
  const position = (wallet: SandboxWallet) => readPosition(state, program, wallet.address as Address, AUTOPILOT)
  const holder = wallets.find((wallet) => (position(wallet)?.shares ?? 0n) > 0n)
  const newcomer = wallets.find((wallet) => position(wallet) === null)
  if (holder === undefined || newcomer === undefined) throw new Error("the scenario has no holder or no newcomer")
  return { holder, newcomer }
}

describe("server preflight (simulateTransaction on the sandbox)", () => {
  it.scoped("a simulated build's limit is the sandbox's unitsConsumed plus the margin, and the signed build lands", () =>
    Effect.gen(function*() {
      const state = yield* Effect.promise(snapshotState)
      const { newcomer } = yield* Effect.promise(() => users(state))
      const build = yield* gateway(state, simulatorAt(sandbox.handle.rpcUrl))
      const answer = yield* build("deposit", { userAddress: newcomer.address, amountRaw: "25000000" })
      expect(answer.status).toBe(200)
      const data = answer.body.data
      expect(data.validation).toEqual({ accepted: true, rejectionReasons: [] })
      expect(data.simulation).toBe("simulated")
      expectWellFormedBuild(data, newcomer.address, program)

      // the sandbox charges the same units whatever the limit: the answer's limit derives from them
      const simulated = yield* Effect.promise(() => simulateOnSandbox(data.transactionBase64))
      expect(simulated.value.err).toBeNull()
      expect(simulated.value.unitsConsumed).toBeGreaterThan(0)
      expect(data.computeUnitLimit).toBe(simulatedComputeUnitLimit(simulated.value.unitsConsumed))
      expect(data.computeUnitLimit).toBeGreaterThan(simulated.value.unitsConsumed)
      const estimate = estimateComputeUnitLimit(data.instructions.map(fromLegacy))
      expect(data.computeUnitLimit).not.toBe(estimate)

      const signature = yield* Effect.promise(() => signAndSend(sandbox.handle.rpcUrl, newcomer, data.transactionBase64))
      expect(typeof signature).toBe("string")
    }), 30_000)

  it.scoped("the chain refuses what the projection allows: 422 SIMULATION_FAILED with the program logs", () =>
    Effect.gen(function*() {
      const state = yield* Effect.promise(snapshotState)
      const { holder, newcomer } = yield* Effect.promise(() => users(state))
      const build = yield* gateway(state, simulatorAt(sandbox.handle.rpcUrl))
      // pause the vault on chain only: the gateway's projection still shows it open
      const tempAddress = findBundleTempDataPda(program, AUTOPILOT)[0]
      const temp = Either.getOrThrow(decodeAccount(state.accounts.get(tempAddress)!.data))
      if (temp.type !== "BundleTempData") throw new Error("not the temp account")
      const paused = encodeAccount({ type: "BundleTempData", data: { ...temp.data, pausedDepositsWithdrawals: true } })
      const restore = encodeAccount(temp)
      const setTemp = (data: Uint8Array) =>
        Effect.promise(() =>
          sandboxCall(sandbox.handle.rpcUrl, "sandbox_setAccount", [{ address: tempAddress, owner: program, data: Buffer.from(data).toString("base64") }])
        )
      yield* Effect.acquireRelease(setTemp(paused), () => setTemp(restore))

      for (const [kind, body] of [
        ["deposit", { userAddress: newcomer.address, amountRaw: "25000000" }],
        ["withdraw", { userAddress: holder.address, withdrawAll: true }],
        // the legacy v1 route shares the build path, preflight included
        ["v1-deposit", { userAddress: newcomer.address, amountRaw: "25000000" }]
      ] as const) {
        const answer = yield* build(kind, body)
        expect(answer.status, kind).toBe(422)
        expect(answer.body).toMatchObject({ success: false, error: "SIMULATION_FAILED", code: "SIMULATION_FAILED" })
        expect(answer.body.simulationError).toContain("InstructionError")
        expect(answer.body.logs.some((line: string) => line.includes("PausedDepositsWithdrawals"))).toBe(true)
        expect(answer.body.logs.some((line: string) => line.startsWith(`Program ${program} invoke`))).toBe(true)
        expect(answer.body).not.toHaveProperty("data")
      }

      // without a simulator the same request is built with the estimate: nothing checks the chain
      const unsimulated = yield* gateway(state, null)
      const plain = yield* unsimulated("deposit", { userAddress: newcomer.address, amountRaw: "25000000" })
      expect(plain.status).toBe(200)
      expect(plain.body.data.simulation).toBe("skipped")
      expect(plain.body.data.computeUnitLimit).toBe(estimateComputeUnitLimit(plain.body.data.instructions.map(fromLegacy)))
    }), 30_000)

  it.effect("the simulator: a JSON-RPC error or an unreachable node is SimulatorUnavailable, not a failed transaction", () =>
    Effect.gen(function*() {
      const garbage = yield* Effect.flip(simulatorAt(sandbox.handle.rpcUrl).simulate("AAAA"))
      expect(garbage._tag).toBe("SimulatorUnavailable")
      expect(garbage.reason).toMatch(/JSON-RPC/)
      const nowhere = yield* Effect.flip(simulatorAt("http://127.0.0.1:9/").simulate("AAAA"))
      expect(nowhere._tag).toBe("SimulatorUnavailable")
    }))

  it.scoped("the node failing to answer is not the user's fault: the estimate, simulation skipped", () =>
    Effect.gen(function*() {
      const state = yield* Effect.promise(snapshotState)
      const { newcomer } = yield* Effect.promise(() => users(state))
      const build = yield* gateway(state, simulatorAt(sandbox.handle.rpcUrl))
      // every plain JSON-RPC call is answered 429 until the fault is cleared
      yield* Effect.acquireRelease(
        Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "http429", fraction: 1, retryAfterSeconds: 1 }])),
        () => Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "clear" }]))
      )
      const answer = yield* build("deposit", { userAddress: newcomer.address, amountRaw: "25000000" })
      expect(answer.status).toBe(200)
      expect(answer.body.data.validation.accepted).toBe(true)
      expect(answer.body.data.simulation).toBe("skipped")
      expect(answer.body.data.computeUnitLimit).toBe(estimateComputeUnitLimit(answer.body.data.instructions.map(fromLegacy)))
      expectWellFormedBuild(answer.body.data, newcomer.address, program)
    }), 30_000)
})

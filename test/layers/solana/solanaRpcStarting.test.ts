import { describe, expect, it } from "@effect/vitest"
import { address } from "@solana/kit"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { BlockhashLive } from "../../../layers/solana/BlockhashLive.ts"
import { PriorityFeesLive } from "../../../layers/solana/PriorityFeesLive.ts"
import { SimulatorLive } from "../../../layers/solana/SimulatorLive.ts"
import { SolanaRpcEndpoint, SolanaRpcLive } from "../../../layers/solana/SolanaRpcLive.ts"
import { TokenBalancesLive } from "../../../layers/solana/TokenBalancesLive.ts"
import { Blockhash } from "../../../services/Blockhash.ts"
import { PriorityFees } from "../../../services/PriorityFees.ts"
import { Simulator } from "../../../services/Simulator.ts"
import { SolanaRpc } from "../../../services/SolanaRpc.ts"
import { TokenBalances } from "../../../services/TokenBalances.ts"
import { startSandbox } from "../../../src/sandbox/index.ts"
import { deterministicKeypair } from "../../../src/sandbox/crypto/keypair.ts"

// How `serve` wires the build services: built at once on the one RPC client, before ingestion has
// the chain up and points the client at it. Until then they answer as if the chain had no data.
const owner = address(deterministicKeypair("test", "starting-owner").address)
const mint = address(deterministicKeypair("test", "starting-mint").address)

/** Polls until `effect` succeeds (the refreshers run on their own fibers, on a busy machine). */
const eventually = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    for (let i = 0; ; i++) {
      const exit = yield* Effect.exit(effect)
      if (Exit.isSuccess(exit) || i >= 250) return yield* exit
      yield* Effect.sleep("20 millis")
    }
  })

const isStarting = (error: { readonly message: string }) => error.message.includes("the chain connection is starting")

describe("the build services on SolanaRpc before and after the chain is up", () => {
  it.scopedLive("starting: 503 blockhash, no priority fee, unchecked balance, no simulation; the node's answers once bound, starting again once unbound", () =>
    Effect.gen(function*() {
      const sandbox = yield* Effect.acquireRelease(
        Effect.promise(() => startSandbox({ port: 0, clock: "manual", seed: "starting" })),
        (started) => Effect.promise(() => started.close())
      )
      const refreshInterval = "20 millis"
      const context = yield* Layer.build(
        Layer.mergeAll(BlockhashLive({ refreshInterval }), PriorityFeesLive({ refreshInterval }), TokenBalancesLive(), SimulatorLive()).pipe(
          Layer.provideMerge(SolanaRpcLive())
        )
      )
      const blockhash = Context.get(context, Blockhash)
      const fees = Context.get(context, PriorityFees)
      const balances = Context.get(context, TokenBalances)
      const simulator = Context.get(context, Simulator)
      const starting = Effect.gen(function*() {
        const rpc = yield* Effect.flip(Context.get(context, SolanaRpc).call("getSlot", [{ commitment: "confirmed" }]))
        expect(rpc.reason).toBe("starting")
        const unavailable = yield* eventually(Effect.flip(blockhash.latest).pipe(Effect.filterOrFail(isStarting)))
        expect(unavailable).toMatchObject({ code: "BLOCKHASH_UNAVAILABLE", retryAfterSeconds: 5 })
        expect(yield* eventually(Effect.filterOrFail(fees.microLamportsPerComputeUnit, (fee) => fee === 0n))).toBe(0n)
        expect(yield* balances.ofAssociatedAccount(owner, mint)).toBeNull()
        const simulation = yield* Effect.flip(simulator.simulate("AAAA"))
        expect(simulation.reason).toMatch(/starting/)
      })
      yield* starting

      // ingestion's side: the chain source binds the endpoint for as long as it lives
      const ingestion = yield* Scope.make()
      yield* Context.get(context, SolanaRpcEndpoint).bind(sandbox.rpcUrl).pipe(Scope.extend(ingestion))
      const fresh = yield* eventually(blockhash.latest)
      expect(fresh.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
      // a missing token account is a zero balance; the node cannot decode "AAAA": a JSON-RPC error, not "starting"
      expect(yield* balances.ofAssociatedAccount(owner, mint)).toBe(0n)
      const published = yield* Effect.flip(simulator.simulate("AAAA"))
      expect(published.reason).toMatch(/JSON-RPC/)

      yield* Scope.close(ingestion, Exit.void)
      yield* starting
    }), 30_000)
})

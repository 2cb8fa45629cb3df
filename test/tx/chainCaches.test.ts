import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { BlockhashLive } from "../../layers/solana/BlockhashLive.ts"
import { feePercentile, PriorityFeesLive } from "../../layers/solana/PriorityFeesLive.ts"
import { SolanaRpcLive } from "../../layers/solana/SolanaRpcLive.ts"
import { Blockhash } from "../../services/Blockhash.ts"
import { PriorityFees } from "../../services/PriorityFees.ts"
import { setComputeUnitPriceIx } from "../../src/ntbundle/ix/computeBudget.ts"
import { buildWithKit, fundedKeypair, startTestSandbox, type TestSandbox } from "../sandbox/support.ts"

const rpcAt = (url: string) => SolanaRpcLive({ url })

/** Polls an effect until it succeeds (or gives up after `ms`). */
const eventually = <A, E>(effect: Effect.Effect<A, E>, ms = 3_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    for (;;) {
      const exit = yield* Effect.exit(effect)
      if (Exit.isSuccess(exit) || Date.now() > deadline) return yield* exit
      yield* Effect.sleep(20)
    }
  })

describe("BlockhashLive", () => {
  let chain: TestSandbox
  beforeAll(async () => {
    chain = await startTestSandbox()
  })
  afterAll(() => chain.sandbox.close())

  it.live("serves the chain's latest blockhash from memory and follows new slots", () =>
    Effect.gen(function*() {
      const blockhash = yield* Blockhash
      const first = yield* eventually(blockhash.latest)
      const fromChain = yield* Effect.promise(() => chain.rpc.getLatestBlockhash({ commitment: "confirmed" }).send())
      expect(first.blockhash).toBe(fromChain.value.blockhash)
      expect(first.lastValidBlockHeight).toBe(Number(fromChain.value.lastValidBlockHeight))

      chain.sandbox.step(3)
      const moved = yield* Effect.promise(() => chain.rpc.getLatestBlockhash({ commitment: "confirmed" }).send())
      expect(moved.value.blockhash).not.toBe(first.blockhash)
      const next = yield* eventually(
        Effect.filterOrFail(blockhash.latest, (value) => value.blockhash === moved.value.blockhash, () => "not yet")
      )
      expect(next.slot).toBeGreaterThan(first.slot)
    }).pipe(Effect.provide(BlockhashLive({ refreshInterval: "30 millis" }).pipe(Layer.provide(rpcAt(chain.sandbox.rpcUrl))))))

  it.live("reports unavailable before the first answer and once the cached one is too old", () =>
    Effect.gen(function*() {
      const other = yield* Effect.promise(() => startTestSandbox())
      const layer = BlockhashLive({ refreshInterval: "30 millis", maxAge: "300 millis", requestTimeout: "200 millis" }).pipe(
        Layer.provide(rpcAt(other.sandbox.rpcUrl))
      )
      yield* Effect.gen(function*() {
        const blockhash = yield* Blockhash
        yield* eventually(blockhash.latest)
        yield* Effect.promise(() => other.sandbox.close())
        yield* Effect.sleep("450 millis")
        const stale = yield* Effect.flip(blockhash.latest)
        expect(stale.code).toBe("BLOCKHASH_UNAVAILABLE")
      }).pipe(Effect.provide(layer))

      const unreachable = BlockhashLive({ refreshInterval: "30 millis", requestTimeout: "200 millis" }).pipe(
        Layer.provide(rpcAt("http://127.0.0.1:9"))
      )
      const never = yield* Effect.flip(Effect.provide(Blockhash.pipe(Effect.flatMap((b) => Effect.zipRight(Effect.sleep(100), b.latest))), unreachable))
      expect(never.message).toContain("none fetched yet")
    }))
})

describe("PriorityFeesLive", () => {
  it("takes the nearest-rank percentile", () => {
    expect(feePercentile([], 50)).toBeNull()
    expect(feePercentile([5n], 99)).toBe(5n)
    expect(feePercentile([10n, 0n, 30n, 20n], 50)).toBe(10n)
    expect(feePercentile([10n, 0n, 30n, 20n], 75)).toBe(20n)
    expect(feePercentile([10n, 0n, 30n, 20n], 100)).toBe(30n)
    expect(feePercentile([10n, 0n, 30n, 20n], 0)).toBe(0n)
  })

  it.live("charges a percentile of the fees recent slots paid, capped, and the fallback without samples", () =>
    Effect.gen(function*() {
      const chain = yield* Effect.acquireRelease(Effect.promise(() => startTestSandbox()), (c) => Effect.promise(() => c.sandbox.close()))
      const payer = fundedKeypair(chain.sandbox, "fee-payer")
      for (const price of [7_000n, 3_000n, 9_000n]) {
        const latest = yield* Effect.promise(() => chain.rpc.getLatestBlockhash().send())
        const priceIx = setComputeUnitPriceIx(price)
        const { wire } = yield* Effect.promise(() =>
          buildWithKit([payer], [{ programId: priceIx.programAddress, accounts: [], data: priceIx.data }], latest.value)
        )
        yield* Effect.promise(() => chain.rpc.sendTransaction(wire, { encoding: "base64" }).send())
        chain.sandbox.step(1)
      }
      const recent = yield* Effect.promise(() => chain.rpc.getRecentPrioritizationFees().send())
      const expected = feePercentile(recent.map((fee) => BigInt(fee.prioritizationFee)), 99)!
      expect(expected).toBeGreaterThan(0n)

      const priced = (maxMicroLamports: bigint) =>
        PriorityFeesLive({ percentile: 99, refreshInterval: "30 millis", maxMicroLamports, fallbackMicroLamports: 42n }).pipe(
          Layer.provide(rpcAt(chain.sandbox.rpcUrl))
        )
      const read = PriorityFees.pipe(
        Effect.flatMap((fees) =>
          eventually(Effect.filterOrFail(fees.microLamportsPerComputeUnit, (value) => value !== 42n, () => "fallback still"))
        )
      )
      expect(yield* Effect.provide(read, priced(1_000_000n))).toBe(expected)
      expect(yield* Effect.provide(read, priced(1_000n))).toBe(1_000n)

      const unreachable = PriorityFeesLive({ fallbackMicroLamports: 42n, refreshInterval: "30 millis", requestTimeout: "100 millis" }).pipe(
        Layer.provide(rpcAt("http://127.0.0.1:9"))
      )
      const fallback = yield* Effect.provide(
        PriorityFees.pipe(Effect.flatMap((fees) => Effect.zipRight(Effect.sleep(150), fees.microLamportsPerComputeUnit))),
        unreachable
      )
      expect(fallback).toBe(42n)
    }).pipe(Effect.scoped))
})

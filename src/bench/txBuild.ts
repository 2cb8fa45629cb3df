import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getAddressDecoder,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction
} from "@solana/kit"
import { Either } from "effect"
import { randomBytes } from "node:crypto"
import { pathToFileURL } from "node:url"
import { buildDepositTransaction } from "../domain/builds/deposit.ts"
import { parseDepositRequest, parseWithdrawRequest } from "../domain/builds/requests.ts"
import { buildWithdrawTransaction } from "../domain/builds/withdraw.ts"
import { isOnEd25519Curve } from "../ntbundle/ed25519.ts"
import { context, makeWorld, NOW, vault } from "./support/buildWorld.ts"
import { fromLegacy } from "./support/legacyToKit.ts"

/**
 * Unsigned transaction builds with a cached blockhash and simulation off (DESIGN §7: >= 2k/s,
 * p99 <= 10 ms): request parsing plus the pure build, one thread. Every build is for a wallet not
 * seen before, so per-user work (curve check, PDA and ATA derivations, position decoding) is paid
 * each time. Kit's compile + encode of the same instructions is timed alongside for reference
 * (BENCH_SKIP_KIT=1 leaves it out; BENCH_BUILDS sets the builds per scenario).
 */
const BUILDS = Number(process.env.BENCH_BUILDS ?? 20_000)
const WARMUP = 2_000

const decoder = getAddressDecoder()
const freshWallets = (count: number): ReadonlyArray<Address> => {
  const out: Array<Address> = []
  while (out.length < count) {
    const bytes = randomBytes(32)
    if (isOnEd25519Curve(bytes)) out.push(decoder.decode(bytes))
  }
  return out
}

const percentile = (sortedMs: ReadonlyArray<number>, p: number): number =>
  sortedMs[Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1)]!

const measure = (label: string, count: number, build: (i: number) => void): Record<string, number> => {
  for (let i = 0; i < Math.min(WARMUP, count); i++) build(count - 1 - i)
  const times = new Float64Array(count)
  const cpuStarted = process.cpuUsage()
  const started = process.hrtime.bigint()
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint()
    build(i)
    times[i] = Number(process.hrtime.bigint() - t0) / 1e6
  }
  const totalSeconds = Number(process.hrtime.bigint() - started) / 1e9
  const cpu = process.cpuUsage(cpuStarted)
  const sorted = [...times].sort((a, b) => a - b)
  return {
    [`${label}: builds/s (target >= 2000)`]: Math.round(count / totalSeconds),
    // CPU time of this process (GC included): on a shared machine, wall-clock rates understate it
    [`${label}: builds/s of CPU time`]: Math.round(count / ((cpu.user + cpu.system) / 1e6)),
    [`${label}: p50 ms`]: Number(percentile(sorted, 50).toFixed(3)),
    [`${label}: p99 ms (target <= 10)`]: Number(percentile(sorted, 99).toFixed(3))
  }
}

export const run = async (): Promise<Record<string, number>> => {
  const newcomers = freshWallets(BUILDS)
  const holders = freshWallets(BUILDS)
  const holding = { shares: 100_000_000n, netDeposits: 100_000_000n, lastDepositTimestamp: NOW - 86_400n }
  const world = makeWorld({ positions: holders.map((owner) => ({ owner, fields: holding })) })
  const ctx = context(world)

  const depositOnce = (user: Address) => {
    const request = Either.getOrThrow(parseDepositRequest({ userAddress: user, amountRaw: "5000000" }))
    const response = Either.getOrThrow(buildDepositTransaction({ ...ctx, vaultAddress: vault, request, codeReferrer: null, userTokenBalance: null }))
    if (!response.validation.accepted) throw new Error("deposit refused")
    return response
  }
  const withdrawOnce = (user: Address) => {
    const request = Either.getOrThrow(parseWithdrawRequest({ userAddress: user, withdrawAll: true }))
    const response = Either.getOrThrow(buildWithdrawTransaction({ ...ctx, vaultAddress: vault, request }))
    if (!response.validation.accepted) throw new Error("withdrawal refused")
  }

  const kitInstructions: ReadonlyArray<ReadonlyArray<Instruction>> = newcomers.slice(0, 2_000).map((user) => {
    const built = depositOnce(user)
    if (!("instructions" in built)) throw new Error("no instructions")
    return built.instructions.map(fromLegacy)
  })
  const kitOnce = (i: number) => {
    const user = newcomers[i % kitInstructions.length]!
    getBase64EncodedWireTransaction(
      compileTransaction(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayer(user, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: ctx.blockhash.blockhash as Blockhash, lastValidBlockHeight: 1n }, m),
          (m) => appendTransactionMessageInstructions(kitInstructions[i % kitInstructions.length]!, m)
        )
      )
    )
  }

  return {
    ...measure("first deposit (new wallet, initialises the position)", BUILDS, (i) => depositOnce(newcomers[i]!)),
    ...measure("repeat deposit (existing position)", BUILDS, (i) => depositOnce(holders[i]!)),
    ...measure("withdraw (withdrawAll, existing position)", BUILDS, (i) => withdrawOnce(holders[i]!)),
    ...(process.env.BENCH_SKIP_KIT === "1" ? {} : measure("kit compile + encode only, same deposit instructions (reference)", 5_000, kitOnce))
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().then(
    (figures) => console.table(figures),
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    }
  )
}

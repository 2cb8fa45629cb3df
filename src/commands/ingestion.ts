import { Duration, Effect, Fiber, Layer, Option } from "effect"
import { ProjectionLive } from "../../layers/projection/ProjectionLive.ts"
import { BackfillStoreLive } from "../../layers/postgres/BackfillStoreLive.ts"
import { ChainStoreLive } from "../../layers/postgres/ChainStoreLive.ts"
import { ChainSourceLive } from "../../layers/solana/ChainSourceLive.ts"
import { HistoryBackfillLive } from "../../layers/solana/HistoryBackfillLive.ts"
import { DailyRollupLive } from "../../layers/postgres/DailyRollupLive.ts"
import { PricesLive, type PricesOptions } from "../../layers/memory/PricesLive.ts"
import type { AppConfig } from "../config.ts"
import type { IngestConfig, SandboxConfig } from "../configIngest.ts"
import { sandboxChainDir, scenarioSandboxScoped } from "./sandboxChain.ts"

/** Solana's convention: the PubSub endpoint is the RPC URL with a ws scheme, one port up when a port is given. */
export const defaultWsUrl = (rpcUrl: string): string => {
  const url = new URL(rpcUrl)
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:"
  if (url.port !== "") url.port = String(Number(url.port) + 1)
  return url.toString()
}

const endpoints = (config: AppConfig, ingest: IngestConfig, sandbox: SandboxConfig) =>
  Option.match(config.rpcUrl, {
    onSome: (rpcUrl) => Effect.succeed({ rpcUrl, wsUrl: Option.getOrElse(config.rpcWsUrl, () => defaultWsUrl(rpcUrl)) }),
    onNone: () =>
      Effect.gen(function*() {
        const { seed, users, builders, historyDays } = sandbox
        yield* Effect.logInfo(
          `starting the sandbox chain (seed ${seed}, ${users} users, ${builders} builders, ${historyDays} days of history)`
        )
        const began = Date.now()
        const started = yield* scenarioSandboxScoped({
          port: sandbox.rpcPort,
          seed: sandbox.seed,
          slotMs: sandbox.slotMs,
          programId: ingest.programId,
          users: sandbox.users,
          builders: sandbox.builders,
          activity: sandbox.activity,
          historyDays: sandbox.historyDays,
          historyStepSeconds: 4 * 3_600,
          persistDir: sandboxChainDir(config.dataDir)
        })
        yield* Effect.logInfo(
          `sandbox chain ${started.resumed ? "resumed" : "ready"} in ${Date.now() - began} ms: RPC ${started.rpcUrl}, PubSub ${started.wsUrl}`
        )
        return started
      })
  })

export type ChainEndpoints = Effect.Effect.Success<ReturnType<typeof endpoints>>

/**
 * Starts reaching the chain now, in the background: the sandbox generates its history while the
 * database starts, not after. The effect returned awaits the endpoints (or the sandbox's failure).
 */
export const startChainEndpoints = (config: AppConfig, ingest: IngestConfig, sandbox: SandboxConfig) =>
  Effect.map(Effect.forkScoped(endpoints(config, ingest, sandbox)), (fiber) => Fiber.join(fiber))

/**
 * The chain connection, the projection over it, its PostgreSQL store and the history backfill.
 * `watchedAccounts` (the price feed accounts) are followed with the program's accounts; `pricing`
 * gives the history rollup the prices it records at each day's close (none: USD values stay null).
 */
export const IngestionLive = <E>(
  ingest: IngestConfig,
  chainEndpoints: Effect.Effect<ChainEndpoints, E>,
  watchedAccounts: ReadonlyArray<string> = [],
  pricing: PricesOptions | null = null
) => {
  const chainSource = Layer.unwrapEffect(
    Effect.map(chainEndpoints, ({ rpcUrl, wsUrl }) => ChainSourceLive({ rpcUrl, wsUrl, programId: ingest.programId, watchedAccounts }))
  )
  const checkpointEvery = Duration.seconds(ingest.checkpointSeconds)
  const projection = ProjectionLive({ checkpointEvery, maxLagSlots: ingest.maxLagSlots })
  const backfill = HistoryBackfillLive({ since: Option.getOrNull(ingest.historySince) })
  // the history rollup closes the daily vault and builder rows from the event log
  return DailyRollupLive().pipe(
    Layer.provide(pricing === null ? Layer.empty : PricesLive(pricing)),
    Layer.provideMerge(backfill),
    Layer.provideMerge(projection),
    Layer.provideMerge(BackfillStoreLive),
    Layer.provideMerge(chainSource),
    Layer.provideMerge(ChainStoreLive)
  )
}

import { Effect, Either, Layer, Option } from "effect"
import { DatabaseLive } from "../../layers/postgres/Database.ts"
import { ProjectionInBackground } from "../../layers/memory/ProjectionInBackground.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { DocsRoutesLive } from "../../layers/uws/DocsRoutes.ts"
import { HttpListenerLive, HttpServerLive } from "../../layers/uws/HttpServer.ts"
import { WsStreamLive } from "../../layers/uws/wsStream.ts"
import { wsLimitsConfig } from "../ws/wsConfig.ts"
import { Api } from "../api/Api.ts"
import { SystemHandlersLive } from "../api/system/SystemHandlers.ts"
import { ReadHandlersLive } from "../api/readHandlers.ts"
import { ReferrersHandlersLive } from "../api/referrers/ReferrersHandlers.ts"
import { ReferrerHistoryHandlersLive } from "../api/referrerHistory/ReferrerHistoryHandlers.ts"
import { ReferrerDailyLive } from "../../layers/postgres/ReferrerDailyLive.ts"
import { ReferrerPayoutsPostgres } from "../domain/reporting/ReferrerPayoutsPostgres.ts"
import { CohortEventLogLive } from "../../layers/postgres/CohortEventLogLive.ts"
import { PricesLive } from "../../layers/memory/PricesLive.ts"
import { priceConfig, resolvePriceFeeds } from "../pyth/priceConfig.ts"
import { sandboxPriceFeedMap } from "../sandbox/pyth/price-feeds.ts"
import { VaultHistoryLive } from "../../layers/postgres/VaultHistoryLive.ts"
import { appConfig, describeConfigError } from "../config.ts"
import { ingestConfig, sandboxConfig } from "../configIngest.ts"
import { LoggingLive } from "../logging.ts"
import { runMain } from "../runMain.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"
import { IngestionLive } from "./ingestion.ts"
import { keysConfig } from "../configKeys.ts"
import { PartnerAuthLive, SandboxPartnerKeyLive } from "./partnerKeysServe.ts"
import { ControlPlaneLive } from "./controlPlaneServe.ts"
import { controlPlaneConfig } from "../api/controlPlane/controlPlaneConfig.ts"
import { BuildsLive } from "../api/builds/BuildsLive.ts"
import { buildMeterConfig, buildSimulationConfig } from "../api/builds/buildConfig.ts"
import { PublishSimulator, SimulatorFromHandoff, SimulatorHandoffLive } from "../../layers/solana/SimulatorHandoff.ts"
import { PublicHandlersLive } from "../api/public/PublicHandlers.ts"
import { BuilderCodesLive } from "../../layers/postgres/BuilderCodesLive.ts"
import { SandboxCodesSeed } from "../../layers/postgres/SandboxCodesSeed.ts"
import { RateLimiterMemory } from "../../layers/memory/RateLimiterMemory.ts"
import {
  ChainBuildHandoffLive,
  ChainBuildServicesFromHandoff,
  PublishChainBuildServices
} from "../../layers/solana/ChainBuildServices.ts"

const HELP = `usage: vault-gateway serve

Runs the gateway. Configuration comes from the environment (see the README):
  HOST, PORT, DATABASE_URL, RPC_URL, RPC_WS_URL, CLUSTER, PROGRAM_ID, DATA_DIR, LOG_LEVEL,
  LOG_FORMAT, CHECKPOINT_SECONDS, MAX_LAG_SLOTS, HISTORY_SINCE and, without RPC_URL, SANDBOX_SEED,
  SANDBOX_USERS, SANDBOX_BUILDERS, SANDBOX_ACTIVITY, SANDBOX_HISTORY_DAYS, SANDBOX_SLOT_MS,
  SANDBOX_RPC_PORT, SANDBOX_PARTNER_KEY, KEY_QUOTA_LIMIT, KEY_QUOTA_WINDOW_SECONDS, BUILD_RATE_LIMIT, BUILD_RATE_WINDOW_SECONDS, TRUST_PROXY, BUILD_SIMULATION,
  WS_MAX_TOPICS, WS_MAX_CONNECTIONS_PER_KEY, WS_MAX_MESSAGE_BYTES, WS_IDLE_TIMEOUT_SECONDS,
  WS_BACKPRESSURE_BYTES, WS_CLOSE_ABOVE_BYTES, PRICE_FEEDS, PRICE_MAX_AGE_SECONDS, PUBLIC_ORIGIN,
  SESSION_IDLE_MINUTES, SESSION_MAX_HOURS, AUTH_RATE_LIMIT, AUTH_RATE_WINDOW_SECONDS
`

export const serve: Command = {
  run: async (args) => {
    if (args.includes("--help") || args.includes("-h")) {
      process.stdout.write(HELP)
      return 0
    }
    if (args.length > 0) {
      process.stderr.write(`vault-gateway serve: unexpected argument '${args[0]}'\n${HELP}`)
      return EXIT_USAGE
    }
    const config = await Effect.runPromise(
      Effect.either(
        Effect.flatMap(appConfig, (app) =>
          Effect.map(Effect.all([ingestConfig(app.cluster), sandboxConfig, buildMeterConfig, priceConfig, buildSimulationConfig]), ([ingest, sandbox, buildMeter, pricing, buildSimulation]) => ({ app, ingest, sandbox, buildMeter, pricing, buildSimulation }))
        )
      )
    )
    if (Either.isLeft(config)) {
      process.stderr.write(`vault-gateway: ${describeConfigError(config.left)}\n`)
      return EXIT_USAGE
    }
    const { app: appSettings, ingest, sandbox, buildMeter, pricing, buildSimulation } = config.right
    // The sandbox hosts its own feed accounts (at the addresses mainnet's feeds have).
    const priceFeeds = resolvePriceFeeds(appSettings.cluster, pricing.overrides, sandboxPriceFeedMap())
    const { host, port, databaseUrl, dataDir } = appSettings
    const database = DatabaseLive({ url: databaseUrl, dataDir })
    // on the in-process sandbox (no RPC_URL), each scenario builder gets a code
    const chainBuild = buildSimulation ? Layer.merge(PublishChainBuildServices, PublishSimulator()) : PublishChainBuildServices
    const chainExtras = Option.isNone(appSettings.rpcUrl) ? Layer.merge(chainBuild, SandboxCodesSeed) : chainBuild
    const ingestion = chainExtras.pipe(Layer.provideMerge(IngestionLive(appSettings, ingest, sandbox, [...priceFeeds.values()])))
    const projection = ProjectionInBackground(ingestion).pipe(Layer.provide(database))
    const prices = PricesLive({ feeds: priceFeeds, maxAgeSeconds: pricing.maxAgeSeconds }).pipe(Layer.provide(projection))
    // BUILD_SIMULATION=false: no Simulator, builds keep the per-instruction estimate
    const buildServices = Layer.mergeAll(
      ChainBuildServicesFromHandoff,
      buildSimulation ? SimulatorFromHandoff : Layer.empty,
      BuilderCodesLive.pipe(Layer.provide(database)),
      RateLimiterMemory
    )
    const keySettings = await Effect.runPromise(Effect.either(keysConfig(appSettings.cluster)))
    if (Either.isLeft(keySettings)) {
      process.stderr.write(`vault-gateway: ${describeConfigError(keySettings.left)}\n`)
      return EXIT_USAGE
    }
    const wsLimits = await Effect.runPromise(Effect.either(wsLimitsConfig))
    if (Either.isLeft(wsLimits)) {
      process.stderr.write(`vault-gateway: ${describeConfigError(wsLimits.left)}\n`)
      return EXIT_USAGE
    }
    const controlPlaneSettings = await Effect.runPromise(Effect.either(controlPlaneConfig(appSettings.cluster, port)))
    if (Either.isLeft(controlPlaneSettings)) {
      process.stderr.write(`vault-gateway: ${describeConfigError(controlPlaneSettings.left)}\n`)
      return EXIT_USAGE
    }
    const controlPlane = ControlPlaneLive(controlPlaneSettings.right).pipe(Layer.provide(database))
    const partnerAuth = PartnerAuthLive(appSettings.cluster, keySettings.right).pipe(Layer.provide(database))
    // the builders meter a request with a valid partner key on the key's quota
    const builds = Layer.merge(BuildsLive(buildMeter), PublicHandlersLive).pipe(Layer.provide(Layer.merge(buildServices, partnerAuth)))
    const referrerHistory = ReferrerHistoryHandlersLive.pipe(Layer.provide(ReferrerDailyLive.pipe(Layer.provide(database))))
    const handlers = Layer.mergeAll(SystemHandlersLive, ReadHandlersLive, referrerHistory, ReferrersHandlersLive.pipe(Layer.provide(Layer.merge(ReferrerPayoutsPostgres, CohortEventLogLive).pipe(Layer.provide(database)))), builds).pipe(Layer.provide(Layer.mergeAll(projection, prices, VaultHistoryLive.pipe(Layer.provide(database)), ReferrerDailyLive.pipe(Layer.provide(database)))))
    const sandboxKey = appSettings.cluster === "sandbox"
      ? SandboxPartnerKeyLive(keySettings.right).pipe(Layer.provide(database))
      : Layer.empty
    const stream = WsStreamLive({ limits: wsLimits.right }).pipe(Layer.provide(Layer.merge(projection, prices)))
    const routes = Layer.mergeAll(ApiRoutesLive(Api), DocsRoutesLive(Api), stream, sandboxKey).pipe(
      Layer.provide(Layer.mergeAll(handlers, partnerAuth, controlPlane))
    )
    // Listen only once every route is registered.
    const http = HttpListenerLive({ host, port }).pipe(Layer.provide(routes), Layer.provideMerge(HttpServerLive))
    return runMain(Layer.launch(http.pipe(Layer.provide(Layer.merge(ChainBuildHandoffLive, SimulatorHandoffLive)))).pipe(Effect.provide(LoggingLive(appSettings))))
  }
}

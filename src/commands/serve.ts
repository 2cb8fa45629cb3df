import { ActionIconRouteLive } from "../../layers/uws/ActionIconRoute.ts"
import { Effect, Either, Layer, Option } from "effect"
import { DatabaseLive } from "../../layers/postgres/Database.ts"
import { ProjectionInBackground } from "../../layers/projection/ProjectionInBackground.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { ActionsLive } from "../api/actions/ActionsHandlers.ts"
import { DocsRoutesLive } from "../../layers/uws/DocsRoutes.ts"
import { HttpListenerLive, HttpServerLive } from "../../layers/uws/HttpServer.ts"
import { WsStreamLive } from "../../layers/uws/wsStream.ts"
import { TrafficLive } from "../../layers/uws/TrafficLive.ts"
import { WebPagesRoutesLive } from "../../layers/uws/WebPagesRoutes.ts"
import { WebBundlesLive } from "../../layers/esbuild/WebBundlesLive.ts"
import { StatusHistoryLive } from "../../layers/memory/StatusHistoryLive.ts"
import { wsLimitsConfig } from "../ws/wsConfig.ts"
import { Api } from "../api/Api.ts"
import { SystemHandlersLive } from "../api/system/SystemHandlers.ts"
import { ReadHandlersLive } from "../api/readHandlers.ts"
import { ReferrersHandlersLive } from "../api/referrers/ReferrersHandlers.ts"
import { ReferrerHistoryHandlersLive } from "../api/referrerHistory/ReferrerHistoryHandlers.ts"
import { ReferrerHistoryLive } from "../../layers/postgres/ReferrerHistoryLive.ts"
import { ReferrerPayoutsLive } from "../../layers/postgres/ReferrerPayoutsLive.ts"
import { CohortEventLogLive } from "../../layers/postgres/CohortEventLogLive.ts"
import { PositionRequestsLive } from "../../layers/postgres/PositionRequestsLive.ts"
import { UserActivityLive } from "../../layers/postgres/UserActivityLive.ts"
import { PricesLive } from "../../layers/memory/PricesLive.ts"
import { priceConfig, resolvePriceFeeds } from "../pyth/priceConfig.ts"
import { sandboxPriceFeedMap } from "../sandbox/pyth/priceFeeds.ts"
import { VaultHistoryLive } from "../../layers/postgres/VaultHistoryLive.ts"
import { VaultSeriesLive } from "../../layers/postgres/VaultSeriesLive.ts"
import { appConfig, describeConfigError } from "../config.ts"
import { ingestConfig, sandboxConfig } from "../configIngest.ts"
import { LoggingLive } from "../logging.ts"
import { runMain } from "../runMain.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"
import { type ChainEndpoints, IngestionLive, startChainEndpoints } from "./ingestion.ts"
import { ServeBannerLive } from "./serveBanner.ts"
import { describeDatabaseFailure, describeListenFailure } from "./startupFailure.ts"
import { keysConfig } from "../configKeys.ts"
import { boundHeapGrowthForSandbox } from "./heapGrowth.ts"
import { PartnerAuthLive, resolveSandboxPartnerKey, SandboxPartnerKeyLive } from "./partnerKeysServe.ts"
import { ControlPlaneLive } from "./controlPlaneServe.ts"
import { KeyUsageLive } from "../../layers/postgres/KeyUsageLive.ts"
import { controlPlaneConfig } from "../api/controlPlane/controlPlaneConfig.ts"
import { BuildsLive } from "../api/builds/BuildsLive.ts"
import { buildMeterConfig, buildSimulationConfig } from "../api/builds/buildConfig.ts"
import { PublicHandlersLive } from "../api/public/PublicHandlers.ts"
import { BuilderCodesLive } from "../../layers/postgres/BuilderCodesLive.ts"
import { SandboxCodesSeed } from "../../layers/postgres/SandboxCodesSeed.ts"
import { SolanaRpcLive } from "../../layers/solana/SolanaRpcLive.ts"
import { BlockhashLive } from "../../layers/solana/BlockhashLive.ts"
import { PriorityFeesLive } from "../../layers/solana/PriorityFeesLive.ts"
import { TokenBalancesLive } from "../../layers/solana/TokenBalancesLive.ts"
import { SimulatorLive } from "../../layers/solana/SimulatorLive.ts"
import { MetricsListenerLive } from "../../layers/otel/MetricsListenerLive.ts"
import { IngestionProgressLive } from "../../layers/memory/IngestionProgressLive.ts"
import { metricsConfig } from "../telemetry/metricsConfig.ts"
import { tracingConfig } from "../telemetry/tracingConfig.ts"
import { TracingLive } from "../../layers/otel/TracingLive.ts"
import { LeadershipLive } from "../../layers/postgres/LeadershipLive.ts"
import { CursorSecretLive } from "../../layers/postgres/CursorSecretLive.ts"
import { sharedLimitsConfig } from "../limits/sharedLimitsConfig.ts"
import { LimitsLive } from "./limitsServe.ts"

const HELP = `usage: vault-gateway serve

Runs the gateway. Configuration comes from the environment (see the README):
  HOST, PORT, DATABASE_URL, RPC_URL, RPC_WS_URL, CLUSTER, PROGRAM_ID, DATA_DIR, LOG_LEVEL,
  LOG_FORMAT, CHECKPOINT_SECONDS, MAX_LAG_SLOTS, HISTORY_SINCE and, without RPC_URL, SANDBOX_SEED,
  SANDBOX_USERS, SANDBOX_BUILDERS, SANDBOX_ACTIVITY, SANDBOX_HISTORY_DAYS, SANDBOX_SLOT_MS,
  SANDBOX_RPC_PORT, SANDBOX_PARTNER_KEY, KEY_QUOTA_LIMIT, KEY_QUOTA_WINDOW_SECONDS, BUILD_RATE_LIMIT, BUILD_RATE_WINDOW_SECONDS, TRUST_PROXY, BUILD_SIMULATION,
  WS_MAX_TOPICS, WS_MAX_CONNECTIONS_PER_KEY, WS_MAX_MESSAGE_BYTES, WS_IDLE_TIMEOUT_SECONDS,
  WS_BACKPRESSURE_BYTES, WS_CLOSE_ABOVE_BYTES, SHARED_LIMITS, QUOTA_LEASE_PERCENT, PRICE_FEEDS, PRICE_MAX_AGE_SECONDS, PUBLIC_ORIGIN,
  SESSION_IDLE_MINUTES, SESSION_MAX_HOURS, AUTH_RATE_LIMIT, AUTH_RATE_WINDOW_SECONDS, METRICS_HOST,
  METRICS_PORT and the standard OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME
`

/** Everything `serve` reads from the environment, in this order: the first error is the one reported. */
const serveConfig = Effect.gen(function*() {
  const app = yield* appConfig
  const ingest = yield* ingestConfig(app.cluster)
  const sandbox = yield* sandboxConfig
  const buildMeter = yield* buildMeterConfig
  const pricing = yield* priceConfig
  const buildSimulation = yield* buildSimulationConfig
  const keys = yield* keysConfig(app.cluster)
  const wsLimits = yield* wsLimitsConfig
  const controlPlane = yield* controlPlaneConfig(app.cluster, app.port)
  const metrics = yield* metricsConfig
  const tracing = yield* tracingConfig
  const sharedLimits = yield* sharedLimitsConfig
  return { app, ingest, sandbox, buildMeter, pricing, buildSimulation, keys, wsLimits, controlPlane, metrics, tracing, sharedLimits }
})

type ServeConfig = Effect.Effect.Success<typeof serveConfig>

/**
 * The gateway: ingestion built in the background behind the projection, the REST and WebSocket
 * routes over it, and the listener once every route is registered.
 */
const gatewayOn = <E>(config: ServeConfig, chainEndpoints: Effect.Effect<ChainEndpoints, E>) => {
  const { app, ingest, buildMeter, pricing, buildSimulation, keys, wsLimits, controlPlane, metrics, tracing, sharedLimits } = config
  const database = DatabaseLive({ url: app.databaseUrl, dataDir: app.dataDir })
  const onDatabase = <A, E, R>(layer: Layer.Layer<A, E, R>) => Layer.provide(layer, database)
  // quotas, build meters and WebSocket connections: in memory, or across instances (SHARED_LIMITS)
  const limits = LimitsLive(sharedLimits, app.databaseUrl)
  const limiter = onDatabase(limits.rateLimiter)

  // The chain. The sandbox hosts its own feed accounts (at the addresses mainnet's feeds have).
  const priceFeeds = resolvePriceFeeds(app.cluster, pricing.overrides, sandboxPriceFeedMap())
  const chainIngestion = IngestionLive(ingest, chainEndpoints, [...priceFeeds.values()], { feeds: priceFeeds, maxAgeSeconds: pricing.maxAgeSeconds })
  // on the in-process sandbox (no RPC_URL), each scenario builder gets a code once the chain is up
  const sandboxKey = app.cluster === "sandbox" ? Option.some(resolveSandboxPartnerKey(keys.sandboxPartnerKey, app.dataDir)) : Option.none()
  const sandboxSeed = SandboxCodesSeed({ programId: ingest.programId, partnerKey: sandboxKey })
  const ingestion = Option.isNone(app.rpcUrl) ? sandboxSeed.pipe(Layer.provideMerge(chainIngestion)) : chainIngestion
  // what the background work reports for /status (backfill, rollup, checkpoints): one instance for both
  const progress = IngestionProgressLive
  // one writer among the instances on this database (an advisory lock): checkpoints, backfill, rollups
  const leadership = onDatabase(LeadershipLive())
  const projection = onDatabase(ProjectionInBackground(ingestion)).pipe(Layer.provide(Layer.merge(progress, leadership)))
  const prices = PricesLive({ feeds: priceFeeds, maxAgeSeconds: pricing.maxAgeSeconds }).pipe(Layer.provide(projection))

  // The partner key: keys in Postgres; on the sandbox, one seeded and printed.
  // requests per key and day, counted in memory and flushed to Postgres; the control plane reads them
  const keyUsage = onDatabase(KeyUsageLive())
  const partnerAuth = onDatabase(PartnerAuthLive(app.cluster, keys, limiter)).pipe(Layer.provide(keyUsage))
  const sandboxKeySeed = Option.match(sandboxKey, { onNone: () => Layer.empty, onSome: (key) => onDatabase(SandboxPartnerKeyLive(key)) })
  // The control plane: wallet sessions, organizations, codes and keys, all in Postgres.
  const builderControl = onDatabase(ControlPlaneLive(controlPlane, limiter)).pipe(Layer.provide(keyUsage))

  // The transaction builders, on SolanaRpc: until ingestion has the chain up they get a 503 for the
  // blockhash, no priority fee, unchecked balances and the estimate.
  // BUILD_SIMULATION=false: no Simulator, builds keep the per-instruction estimate
  const buildServices = Layer.mergeAll(
    BlockhashLive(),
    PriorityFeesLive(),
    TokenBalancesLive(),
    buildSimulation ? SimulatorLive() : Layer.empty,
    onDatabase(BuilderCodesLive),
    limiter
  )
  // the builders meter a request with a valid partner key on the key's quota
  const builds = Layer.mergeAll(BuildsLive(buildMeter), PublicHandlersLive, ActionsLive({ origin: controlPlane.origin })).pipe(
    Layer.provide(Layer.merge(buildServices, partnerAuth))
  )

  // The reads: from the projection, with history and reports from Postgres.
  const referrerHistory = ReferrerHistoryHandlersLive.pipe(Layer.provide(onDatabase(ReferrerHistoryLive)))
  const referrerReports = onDatabase(Layer.merge(ReferrerPayoutsLive, CohortEventLogLive))
  const referrers = ReferrersHandlersLive.pipe(Layer.provide(referrerReports))
  // the ops page's last hour (lag, request rate, connections), sampled in memory
  const statusHistory = StatusHistoryLive().pipe(Layer.provide(Layer.merge(projection, TrafficLive)))
  const readSources = Layer.mergeAll(
    projection,
    statusHistory,
    prices,
    progress,
    leadership,
    onDatabase(CursorSecretLive),
    onDatabase(VaultHistoryLive),
    onDatabase(VaultSeriesLive),
    onDatabase(ReferrerHistoryLive),
    onDatabase(PositionRequestsLive),
    onDatabase(UserActivityLive)
  )
  const handlers = Layer.mergeAll(SystemHandlersLive, ReadHandlersLive, referrerHistory, referrers, builds).pipe(
    Layer.provide(readSources)
  )

  const stream = WsStreamLive({ limits: wsLimits, meter: metrics.port !== null }).pipe(
    Layer.provide(Layer.mergeAll(projection, prices, onDatabase(limits.keyConnections)))
  )
  const api = ApiRoutesLive(Api, { meterRequests: metrics.port !== null, traceRequests: tracing.enabled })
  // the builder dashboard and the ops page, bundled on their first request
  const webPages = WebPagesRoutesLive.pipe(Layer.provide(WebBundlesLive))
  const routes = Layer.mergeAll(api, DocsRoutesLive(Api), webPages, ActionIconRouteLive, stream, sandboxKeySeed).pipe(
    Layer.provide(Layer.mergeAll(handlers, partnerAuth, builderControl))
  )
  // Listen only once every route is registered.
  const http = HttpListenerLive({ host: app.host, port: app.port }).pipe(
    Layer.provide(routes),
    Layer.provideMerge(HttpServerLive)
  )
  // then where to go next, and a line once live
  const banner = ServeBannerLive(sandboxKey, controlPlane.origin.origin).pipe(Layer.provide(Layer.merge(http, projection)))
  // Prometheus metrics on their own listener (METRICS_PORT=off: none).
  const port = metrics.port
  const metricsListener = port === null ? Layer.empty : MetricsListenerLive({ ...metrics, port }).pipe(Layer.provide(projection))
  // One RPC client for every adapter (exactly one instance): the chain source points it at the node
  // once the chain is up. Traces (OTEL_EXPORTER_OTLP_ENDPOINT) cover everything built below, so the
  // tracer comes last.
  return Layer.mergeAll(http, banner, metricsListener).pipe(Layer.provide(SolanaRpcLive()), Layer.provide(TracingLive(tracing)))
}

/** The chain (on the sandbox, its history) starts first, while the database and the rest are built. */
const gateway = (config: ServeConfig) => {
  if (Option.isNone(config.app.rpcUrl)) boundHeapGrowthForSandbox()
  return Layer.unwrapScoped(
    Effect.map(startChainEndpoints(config.app, config.ingest, config.sandbox), (chainEndpoints) => gatewayOn(config, chainEndpoints))
  )
}

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
    const config = await Effect.runPromise(Effect.either(serveConfig))
    if (Either.isLeft(config)) {
      process.stderr.write(`vault-gateway: ${describeConfigError(config.left)}\n`)
      return EXIT_USAGE
    }
    return runMain(
      Layer.launch(gateway(config.right)).pipe(Effect.provide(LoggingLive(config.right.app))),
      (cause) => describeDatabaseFailure(cause, config.right.app.databaseUrl) ?? describeListenFailure(cause)
    )
  }
}

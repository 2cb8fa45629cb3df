import { ActionIconRouteLive } from "../../../layers/uws/ActionIconRoute.ts"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, Layer } from "effect"
import { ApiRoutesLive } from "../../../layers/uws/ApiRoutes.ts"
import { ActionsLive } from "../../api/actions/ActionsHandlers.ts"
import { DocsRoutesLive } from "../../../layers/uws/DocsRoutes.ts"
import { WebPagesRoutesLive } from "../../../layers/uws/WebPagesRoutes.ts"
import { WebBundlesLive } from "../../../layers/esbuild/WebBundlesLive.ts"
import { HttpListener, HttpListenerLive, type HttpServer, HttpServerLive } from "../../../layers/uws/HttpServer.ts"
import type { HttpLimits } from "../../../layers/uws/limits.ts"
import { Api } from "../../api/Api.ts"
import { SystemHandlersLive } from "../../api/system/SystemHandlers.ts"
import { ReadHandlersLive } from "../../api/readHandlers.ts"
import { ReferrersHandlersLive } from "../../api/referrers/ReferrersHandlers.ts"
import { ReferrerHistoryHandlersLive } from "../../api/referrerHistory/ReferrerHistoryHandlers.ts"
import type { ReferrerHistory } from "../../../services/ReferrerHistory.ts"
import type { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { ReferrerHistoryStandIn } from "./referrerHistoryStandIn.ts"
import { ReferrerPayouts } from "../../../services/ReferrerPayouts.ts"
import { NoPricesLive } from "../../../layers/memory/PricesLive.ts"
import type { Prices } from "../../../services/Prices.ts"
import type { Projection } from "../../../services/Projection.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import type { ProjectionStatus } from "../../domain/status.ts"
import { ProjectionTest } from "./projectionTest.ts"
import { BuildsLive } from "../../api/builds/BuildsLive.ts"
import { BuildStandIns } from "./buildStandIns.ts"
import { PublicHandlersLive } from "../../api/public/PublicHandlers.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "./partnerKeyStandIn.ts"
import { VaultHistoryStandIn } from "./vaultHistoryStandIn.ts"
import { VaultSeriesStandIn } from "./vaultSeriesStandIn.ts"
import type { DailyRow } from "../../domain/history/dailyRow.ts"
import type { CohortEventLog } from "../../../services/CohortEventLog.ts"
import { CohortEventLogStandIn } from "./cohortEventLogStandIn.ts"
import { ControlPlaneStandIn } from "./controlPlaneStandIn.ts"
import type { UserActivity } from "../../../services/UserActivity.ts"


/** A real uWS server on a free loopback port, serving `routes` (registered before it listens). */
export const listenForTest = <E, R>(routes: Layer.Layer<never, E, R>) =>
  HttpListenerLive({ host: "127.0.0.1", port: 0 }).pipe(Layer.provide(routes), Layer.provideMerge(HttpServerLive))

/** The gateway's HTTP API as `serve` composes it, over a `ProjectionTest` the test controls. */
export const gatewayForTest = <PayoutsR = never>(
  options: {
    readonly initial?: ProjectionStatus
    readonly limits?: Partial<HttpLimits>
    readonly state?: ProjectionState
    /** Daily rows the vault history answers with, per vault. */
    readonly history?: ReadonlyMap<string, ReadonlyArray<DailyRow>>
    /** Per-IP build limit (default 20 per 60 s, the service default). */
    readonly buildsPerMinute?: number
    /** The partner key middleware (default: `PartnerKeyStandIn`, a key without an owner wallet). */
    readonly partnerKey?: Layer.Layer<Layer.Layer.Success<typeof PartnerKeyStandIn>, never, PayoutsR>
    /** Builder codes the public resolver and the builders read (default: in memory, empty). */
    readonly builderCodes?: Layer.Layer<BuilderCodes, never, PayoutsR>
    /** The control plane's handlers and session middleware (default: `ControlPlaneStandIn`, no session accepted). */
    readonly controlPlane?: Layer.Layer<Layer.Layer.Success<typeof ControlPlaneStandIn>, never, PayoutsR>
    /** More routes on the same app, e.g. the WebSocket stream (given prices and the partner key). */
    readonly extraRoutes?: Layer.Layer<never, never, HttpServer | Projection | Prices | Layer.Layer.Success<typeof PartnerKeyStandIn>>
    /** Settled builder claims (default: none); e.g. the Postgres implementation over a test database. */
    readonly referrerPayouts?: Layer.Layer<ReferrerPayouts, never, PayoutsR>
    /** The builder cohort's event log (default: empty, history complete); e.g. the Postgres implementation. */
    readonly cohortEventLog?: Layer.Layer<CohortEventLog, never, PayoutsR>
    /** Daily builder rows (default: none, every day stored); e.g. the Postgres implementation. */
    readonly referrerHistory?: Layer.Layer<ReferrerHistory, never, PayoutsR>
    /** A wallet's events (default: none, the user history routes answer 503); e.g. the Postgres implementation. */
    readonly userActivity?: Layer.Layer<UserActivity, never, PayoutsR>
    /** Count requests for the Prometheus metrics, as `serve` does with its metrics listener on. */
    readonly meterRequests?: boolean
  } = {}
) => {
  const partnerKey = options.partnerKey ?? PartnerKeyStandIn
  const referrers = ReferrersHandlersLive.pipe(
    Layer.provide(options.referrerPayouts ?? Layer.succeed(ReferrerPayouts, { page: () => Effect.succeed([]) })),
    Layer.provide(options.cohortEventLog ?? CohortEventLogStandIn())
  )
  // the daily rows and how far they are stored (the vault history routes check the coverage too)
  const referrerHistoryRows = options.referrerHistory ?? ReferrerHistoryStandIn()
  const referrerHistory = ReferrerHistoryHandlersLive.pipe(Layer.provide(referrerHistoryRows))
  const builds = Layer.mergeAll(
    BuildsLive({ perIp: { limit: options.buildsPerMinute ?? 20, windowSeconds: 60 }, trustProxy: false }),
    PublicHandlersLive,
    ActionsLive({ origin: new URL("http://127.0.0.1") })
  ).pipe(Layer.provide(options.builderCodes ?? Layer.empty), Layer.provide(Layer.merge(BuildStandIns, partnerKey)))
  const routes = Layer.mergeAll(
    ApiRoutesLive(Api, { ...(options.limits === undefined ? {} : { limits: options.limits }), meterRequests: options.meterRequests === true }),
    DocsRoutesLive(Api),
    ActionIconRouteLive,
    WebPagesRoutesLive.pipe(Layer.provide(WebBundlesLive)),
    (options.extraRoutes ?? Layer.empty).pipe(Layer.provide(Layer.merge(partnerKey, NoPricesLive)))
  ).pipe(
    Layer.provide(
      Layer.mergeAll(SystemHandlersLive, ReadHandlersLive, referrers, referrerHistory, builds, partnerKey, options.controlPlane ?? ControlPlaneStandIn).pipe(
        Layer.provide(
          Layer.mergeAll(NoPricesLive, VaultHistoryStandIn(options.history), VaultSeriesStandIn(options.history), referrerHistoryRows, options.userActivity ?? Layer.empty)
        )
      )
    )
  )
  return listenForTest(routes).pipe(
    Layer.provideMerge(
      ProjectionTest({
        ...(options.initial === undefined ? {} : { initial: options.initial }),
        ...(options.state === undefined ? {} : { state: options.state })
      })
    )
  )
}

export type TestServer = HttpServer | HttpListener

/** The typed client of the contract, pointed at the running test server, sending the test partner key. */
export const gatewayClient = Effect.flatMap(HttpListener, ({ url }) =>
  HttpApiClient.make(Api, {
    baseUrl: url,
    transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-api-key", TEST_PARTNER_KEY))
  })).pipe(Effect.provide(FetchHttpClient.layer))

export const serverUrl = Effect.map(HttpListener, ({ url }) => url)

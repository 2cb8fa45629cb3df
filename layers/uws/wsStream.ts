import { Effect, Either, type Exit, Layer, Option, Runtime, Stream } from "effect"
import { KeyConnections } from "../../services/KeyConnections.ts"
import { Prices } from "../../services/Prices.ts"
import { Projection, type ProjectionChangeBatch } from "../../services/Projection.ts"
import { affectedTopics, TouchedTopics } from "../../src/ws/affectedTopics.ts"
import { defaultWsLimits, transportBackpressureLimit, transportPayloadLimit, type WsLimits } from "../../src/ws/limits.ts"
import { upgradeRequired } from "./fixedRoutes.ts"
import { HttpServer } from "./HttpServer.ts"
import { type Connection, WsHub } from "./wsHub.ts"
import { authenticatedUpgrade, partnerKeyRuntime, tooManyConnections } from "./wsUpgrade.ts"
import { noWsMeter, wsMeter } from "../../src/telemetry/wsMeter.ts"

export const STREAM_PATH = "/v2/stream"

/**
 * `GET /v2/stream`: the WebSocket reads (protocol in `src/ws/protocol.ts`), on the same uWS app as
 * the REST routes and behind the same partner key. Projection change batches become topic updates
 * (each run of batches handed over at once costs one update per topic), published on the projection
 * writer's turn, right after the changes were applied. One fiber follows the projection status.
 */
export const WsStreamLive = (
  options: {
    readonly limits?: Partial<WsLimits>
    /** Given the hub once it is registered (benchmarks and tests instrument it). */
    readonly observe?: (hub: WsHub) => void
    /** Count connections, subscriptions, frames, resyncs and closes for the Prometheus metrics. */
    readonly meter?: boolean
  } = {}
) =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const server = yield* HttpServer
      const { app } = server
      const projection = yield* Projection
      const prices = yield* Prices
      const partnerKey = yield* partnerKeyRuntime
      // counted across instances when provided (SHARED_LIMITS); else the hub's own count
      const shared = yield* Effect.serviceOption(KeyConnections)
      const runtime = yield* Effect.runtime<never>()
      const limits: WsLimits = { ...defaultWsLimits, ...options.limits }
      const runLater = (effect: Effect.Effect<unknown, unknown>, onExit: (exit: Exit.Exit<unknown, unknown>) => void) =>
        Runtime.runCallback(runtime)(effect, { onExit })
      const hub = new WsHub(app, projection, prices.priceOf, limits, runLater, options.meter === true ? wsMeter : noWsMeter)
      options.observe?.(hub)

      app.ws<Connection>(STREAM_PATH, {
        maxPayloadLength: transportPayloadLimit(limits),
        idleTimeout: limits.idleTimeoutSeconds,
        sendPingsAutomatically: true,
        // uWS skips (drops) a send or publish to a socket over this: never silently, see `dropped`.
        maxBackpressure: transportBackpressureLimit(limits),
        upgrade: authenticatedUpgrade(runtime, partnerKey, {
          admit: (keyId) => {
            const limit = limits.maxConnectionsPerKey
            if (Option.isSome(shared)) {
              return { later: Effect.map(shared.value.admit(keyId, limit), (admitted) => (admitted ? null : tooManyConnections(limit))) }
            }
            return hub.connectionsOf(keyId) >= limit ? tooManyConnections(limit) : null
          },
          abandoned: (keyId) => Option.isSome(shared) && shared.value.release(keyId),
          accept: (res, keyId, headers, context, request) =>
            res.upgrade<Connection>(
              { keyId, topics: new Map(), held: new Set(), resyncing: false, meter: () => partnerKey.run(request), waiting: null },
              headers.key,
              headers.protocol,
              headers.extensions,
              context
            )
        }),
        open: (ws) => {
          server.traffic.wsConnections++
          hub.open(ws)
        },
        message: (ws, message) => hub.message(ws, message),
        drain: (ws) => hub.drained(ws),
        dropped: (ws) => hub.dropped(ws),
        close: (ws, code) => {
          server.traffic.wsConnections--
          hub.close(ws, code)
          if (Option.isSome(shared)) shared.value.release(ws.getUserData().keyId)
        }
      })
      // uWS hands a GET without the upgrade on to the HTTP routes.
      server.route("GET", STREAM_PATH, upgradeRequired(STREAM_PATH))
      yield* Effect.addFinalizer(() => Effect.sync(() => hub.closeAll()))

      const touched = new TouchedTopics()
      const noBuilders: ReadonlySet<string> = new Set()
      const buildersOf = (vault: string): ReadonlySet<string> =>
        Either.getOrElse(projection.readSync((state) => state.referrersByVault.get(vault)), () => noBuilders)
      const publish = (batches: ReadonlyArray<ProjectionChangeBatch>): void => {
        touched.clear()
        for (const batch of batches) affectedTopics(batch.changes, hub.book, buildersOf, touched)
        if (batches.length > 0 && hub.book.isFollowed("slots")) touched.direct.add("slots")
        if (!touched.isEmpty) hub.publishUpdates(touched)
      }
      const stop = projection.listen(publish)
      yield* Effect.addFinalizer(() => Effect.sync(stop))
      yield* projection.statusChanges.pipe(
        Stream.runForEach((status) => Effect.sync(() => hub.statusChanged(status))),
        Effect.forkScoped
      )
    }).pipe(Effect.withSpan("WsStream.register"))
  )

import { Effect, Either, Layer, Queue, Runtime, Stream } from "effect"
import { Prices } from "../../services/Prices.ts"
import { Projection, type ProjectionChangeBatch } from "../../services/Projection.ts"
import { changeFeedOf } from "../memory/projection/changeFeed.ts"
import { affectedTopics, TouchedTopics } from "../../src/ws/affectedTopics.ts"
import { defaultWsLimits, transportBackpressureLimit, transportPayloadLimit, type WsLimits } from "../../src/ws/limits.ts"
import { HttpServer } from "./HttpServer.ts"
import { type Connection, WsHub } from "./wsHub.ts"
import { authenticatedUpgrade, partnerKeyRuntime, tooManyConnections } from "./wsUpgrade.ts"

export const STREAM_PATH = "/v2/stream"

/**
 * `GET /v2/stream`: the WebSocket reads (protocol in `src/ws/protocol.ts`), on the same uWS app as
 * the REST routes and behind the same partner key. Projection change batches become topic updates
 * (each run of batches handed over at once costs one update per topic): synchronously from the
 * projection's change feed when it has one, else from its change queue. One fiber follows the
 * projection status.
 */
export const WsStreamLive = (
  options: {
    readonly limits?: Partial<WsLimits>
    /** Given the hub once it is registered (benchmarks and tests instrument it). */
    readonly observe?: (hub: WsHub) => void
  } = {}
) =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const { app } = yield* HttpServer
      const projection = yield* Projection
      const prices = yield* Prices
      const partnerKey = yield* partnerKeyRuntime
      const runtime = yield* Effect.runtime<never>()
      const limits: WsLimits = { ...defaultWsLimits, ...options.limits }
      const hub = new WsHub(app, projection, prices.priceOf, limits, (effect, onExit) => Runtime.runCallback(runtime)(effect, { onExit }))
      options.observe?.(hub)

      app.ws<Connection>(STREAM_PATH, {
        maxPayloadLength: transportPayloadLimit(limits),
        idleTimeout: limits.idleTimeoutSeconds,
        sendPingsAutomatically: true,
        // uWS skips (drops) a send or publish to a socket over this: never silently, see `dropped`.
        maxBackpressure: transportBackpressureLimit(limits),
        upgrade: authenticatedUpgrade(runtime, partnerKey, {
          admit: (keyId) =>
            hub.connectionsOf(keyId) >= limits.maxConnectionsPerKey ? tooManyConnections(limits.maxConnectionsPerKey) : null,
          accept: (res, keyId, headers, context, request) =>
            res.upgrade<Connection>(
              { keyId, topics: new Map(), held: new Set(), resyncing: false, meter: () => partnerKey.run(request), waiting: null },
              headers.key,
              headers.protocol,
              headers.extensions,
              context
            )
        }),
        open: (ws) => hub.open(ws),
        message: (ws, message) => hub.message(ws, message),
        drain: (ws) => hub.drained(ws),
        dropped: (ws) => hub.dropped(ws),
        close: (ws) => hub.close(ws)
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => hub.closeAll()))

      const touched = new TouchedTopics()
      const noBuilders: ReadonlySet<string> = new Set()
      const buildersOf = (vault: string): ReadonlySet<string> =>
        Either.getOrElse(projection.readSync((state) => state.referrersByVault.get(vault)), () => noBuilders)
      const publish = (batches: Iterable<ProjectionChangeBatch>): void => {
        touched.clear()
        let any = false
        for (const batch of batches) {
          any = true
          affectedTopics(batch.changes, hub.book, buildersOf, touched)
        }
        if (any && hub.book.isFollowed("slots")) touched.direct.add("slots")
        if (!touched.isEmpty) hub.publishUpdates(touched)
      }
      const feed = changeFeedOf(projection)
      if (feed !== null) {
        // Published on the writer's turn, right after the changes were applied.
        const stop = feed.listen(publish)
        yield* Effect.addFinalizer(() => Effect.sync(stop))
      } else {
        // Subscribing waits for ingestion to be set up: in the background, so the server listens at once.
        yield* projection.subscribe.pipe(
          Effect.flatMap((changes) =>
            Queue.takeBetween(changes, 1, Number.MAX_SAFE_INTEGER).pipe(
              Effect.map(publish),
              Effect.forever
            )
          ),
          Effect.forkScoped
        )
      }
      yield* projection.statusChanges.pipe(
        Stream.runForEach((status) => Effect.sync(() => hub.statusChanged(status))),
        Effect.forkScoped
      )
    }).pipe(Effect.withSpan("WsStream.register"))
  )

import { Effect, HashMap, Layer, Logger } from "effect"
import { PartnerKeyLive } from "../../../layers/memory/PartnerKeyLive.ts"
import { RateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"
import { BuilderCodesLive } from "../../../layers/postgres/BuilderCodesLive.ts"
import { KeyUsageLive } from "../../../layers/postgres/KeyUsageLive.ts"
import { PartnerKeysLive } from "../../../layers/postgres/PartnerKeysLive.ts"
import type { ControlPlaneSettings } from "../../../src/api/controlPlane/controlPlaneConfig.ts"
import { ControlPlaneLive } from "../../../src/commands/controlPlaneServe.ts"
import { fetchJson, type JsonResponse } from "../../support/httpFetch.ts"
import { gatewayForTest } from "../../../src/bench/support/httpTestServer.ts"
import { liveStatus } from "../../../src/bench/support/projectionTest.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

export const ORIGIN = "http://gateway.test"

export const testSettings = (overrides: Partial<ControlPlaneSettings> = {}): ControlPlaneSettings => ({
  origin: new URL(ORIGIN),
  secureCookie: false,
  lifetimes: { idleSeconds: 1800, maxSeconds: 3600 },
  signInQuota: { limit: 1000, windowSeconds: 60 },
  trustProxy: false,
  chainId: "solana:devnet",
  cluster: "sandbox",
  ...overrides
})

/** Every log line the gateway wrote during the test, as text. */
export const logLines: Array<string> = []
const capture = Logger.make<unknown, void>(({ annotations, message }) => {
  logLines.push(JSON.stringify({ message: Array.isArray(message) ? message.map(String) : String(message), annotations: Object.fromEntries(HashMap.toEntries(annotations)) }))
})

/**
 * The gateway as `serve` composes the control plane: real handlers, wallet-session middleware and
 * partner-key middleware over one test PostgreSQL, the Postgres code resolver, a live projection.
 */
export const controlPlaneGateway = (settings: ControlPlaneSettings = testSettings()) => {
  // one usage counter for the partner keys and the control plane's usage route
  const usage = KeyUsageLive({ flushSeconds: 1 })
  return gatewayForTest({
    initial: liveStatus(100),
    controlPlane: ControlPlaneLive(settings).pipe(Layer.provide(usage), Layer.orDie),
    partnerKey: PartnerKeyLive({ cluster: "sandbox", defaultQuota: { limit: 1000, windowSeconds: 600 }, cacheTtlMs: 15_000 }).pipe(
      Layer.provide(Layer.mergeAll(PartnerKeysLive, RateLimiterLive, usage)),
      Layer.orDie
    ),
    builderCodes: BuilderCodesLive
  }).pipe(Layer.provideMerge(TestDatabase), Layer.provide(Logger.replace(Logger.defaultLogger, capture)))
}

/** A browser-like client of one gateway: keeps the session cookie, sends our Origin on POSTs. */
export const makeClient = (url: string, origin = ORIGIN) => {
  let cookie: string | undefined
  const request = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Effect.Effect<JsonResponse> =>
    Effect.tap(
      fetchJson(`${url}${path}`, {
        method,
        headers: {
          ...(method === "GET" ? {} : { origin }),
          ...(cookie === undefined ? {} : { cookie }),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }),
      (response) =>
        Effect.sync(() => {
          const set = response.headers.get("set-cookie")
          if (set !== null) cookie = set.split(";")[0]!.endsWith("=") ? undefined : set.split(";")[0]
        })
    )
  return {
    get: (path: string, headers?: Record<string, string>) => request("GET", path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => request("POST", path, body, headers),
    cookie: () => cookie,
    setCookie: (value: string | undefined) => {
      cookie = value
    }
  }
}

import { Effect, Layer, Option, Redacted, Stream } from "effect"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { Projection } from "../../services/Projection.ts"
import { VERSION } from "../version.ts"

const print = (text: string) => Effect.sync(() => process.stdout.write(text + "\n"))

/**
 * Where to go next, on stdout for the person who started the server (never through the logger):
 * the API, its reference, the status, and on the sandbox the partner key with a request to try;
 * then one line when the projection is first live.
 */
export const ServeBannerLive = (sandboxKey: Option.Option<Redacted.Redacted<string>>, publicOrigin: string) =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const { url } = yield* HttpListener
      const projection = yield* Projection
      const lines = [
        `vault-gateway ${VERSION} is up: ${url}`,
        `  API reference  ${url}/docs`,
        `  status         ${url}/status (GET /ready answers 200 once the projection is live), ${url}/ops in a browser`,
        // sign-in is accepted from PUBLIC_ORIGIN only
        `  dashboard      ${publicOrigin}/dashboard (builders sign in with a Solana wallet: codes and API keys)`
      ]
      if (Option.isSome(sandboxKey)) {
        const key = Redacted.value(sandboxKey.value)
        lines.push(
          `sandbox partner key: ${key}`,
          `  send it as x-api-key: <key> or Authorization: Bearer <key>, e.g.`,
          `  curl -H "x-api-key: ${key}" ${url}/v2/vaults`
        )
      }
      yield* print(lines.join("\n"))
      yield* projection.statusChanges.pipe(
        Stream.filter((status) => status.status === "live"),
        Stream.take(1),
        Stream.runForEach((status) =>
          print(`live: the projection reflects slot ${status.asOf?.slot ?? "?"}; ${url}/ready answers 200`)
        ),
        Effect.forkScoped
      )
    })
  )

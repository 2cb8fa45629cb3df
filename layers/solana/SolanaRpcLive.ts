import { Context, Effect, Layer, type Scope } from "effect"
import {
  type SolanaRpcAnswer,
  type SolanaRpcCallOptions,
  SolanaRpc,
  SolanaRpcError,
  type SolanaRpcMethod,
  type SolanaRpcMethods,
  type SolanaRpcRequest
} from "../../services/SolanaRpc.ts"
import { type JsonRpcClient, type JsonRpcClientOptions, JsonRpcFailure, makeJsonRpcClient } from "./jsonRpcClient.ts"

export type SolanaRpcOptions = Omit<JsonRpcClientOptions, "url"> & {
  /** The node's JSON-RPC URL; without it the client is "starting" until a SolanaRpcEndpoint binds one. */
  readonly url?: string
}

/**
 * Points the SolanaRpcLive client at a node for as long as the scope lasts (then back where it
 * pointed before). `serve` learns the URL only once the chain is up, in the background.
 */
export class SolanaRpcEndpoint extends Context.Tag("SolanaRpcEndpoint")<
  SolanaRpcEndpoint,
  { readonly bind: (url: string) => Effect.Effect<void, never, Scope.Scope> }
>() {}

const STARTING = new SolanaRpcError({ reason: "starting", message: "the chain connection is starting" })

const describe = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause)
  // fetch's own message ("fetch failed") says nothing; its cause says why
  return cause.cause instanceof Error ? `${cause.message}: ${cause.cause.message}` : cause.message
}

const failure = (what: string) => (cause: unknown): SolanaRpcError =>
  cause instanceof JsonRpcFailure
    ? new SolanaRpcError({ reason: cause.kind, message: `${what}: ${cause.message}`, ...(cause.code === null ? {} : { code: cause.code }) })
    : new SolanaRpcError({ reason: "transport", message: `${what}: ${describe(cause)}` })

/** The port over whichever client `current` holds: none yet fails every call as "starting". */
const serviceOver = (current: () => JsonRpcClient | null): SolanaRpc["Type"] => {
  const call = <M extends SolanaRpcMethod>(method: M, params: SolanaRpcMethods[M]["params"], options: SolanaRpcCallOptions = {}) =>
    Effect.suspend(() => {
      const client = current()
      if (client === null) return Effect.fail(STARTING)
      return Effect.tryPromise({
        try: (signal) => client.call(method, params, { signal, whenRateLimited: options.whenRateLimited ?? "wait" }),
        catch: failure(method)
      }) as Effect.Effect<SolanaRpcMethods[M]["result"], SolanaRpcError>
    }).pipe(Effect.withSpan("SolanaRpc.call", { attributes: { method } }))

  const batch = <M extends SolanaRpcMethod, A = SolanaRpcMethods[M]["result"]>(
    requests: ReadonlyArray<SolanaRpcRequest<M>>,
    decode?: (result: SolanaRpcMethods[M]["result"], index: number) => A
  ) =>
    Effect.suspend(() => {
      const client = current()
      if (client === null) return Effect.fail(STARTING)
      return Effect.tryPromise({
        try: (signal) => client.batch(requests, signal, decode as ((result: unknown, index: number) => A) | undefined),
        catch: failure(`batch of ${requests.length} ${requests[0]?.method ?? ""}`)
      }) as Effect.Effect<ReadonlyArray<SolanaRpcAnswer<A>>, SolanaRpcError>
    }).pipe(Effect.withSpan("SolanaRpc.batch", { attributes: { count: requests.length } }))

  return SolanaRpc.of({ call, batch })
}

/** The port over one client at a fixed endpoint (tests and benchmarks keep the client to read its counters). */
export const solanaRpcOn = (client: JsonRpcClient): SolanaRpc["Type"] => serviceOver(() => client)

/**
 * The one JSON-RPC client of the gateway, with its endpoint bound later through SolanaRpcEndpoint
 * (or given at once as `url`). Until bound, every call fails with reason "starting".
 */
export const SolanaRpcLive = (options: SolanaRpcOptions = {}): Layer.Layer<SolanaRpc | SolanaRpcEndpoint> =>
  Layer.effectContext(Effect.sync(() => {
    const { url, ...tuning } = options
    const clientAt = (endpoint: string) => makeJsonRpcClient({ ...tuning, url: endpoint })
    let client = url === undefined ? null : clientAt(url)
    const bind = (endpoint: string) =>
      Effect.asVoid(
        Effect.acquireRelease(
          Effect.sync(() => {
            const before = client
            client = clientAt(endpoint)
            return before
          }),
          (before) => Effect.sync(() => (client = before))
        )
      )
    return Context.make(SolanaRpc, serviceOver(() => client)).pipe(Context.add(SolanaRpcEndpoint, SolanaRpcEndpoint.of({ bind })))
  }))

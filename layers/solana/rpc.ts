import {
  createDefaultSolanaRpcSubscriptionsChannelCreator,
  createDefaultRpcSubscriptionsTransport,
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  createSolanaRpcSubscriptionsFromTransport,
  isSolanaError,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR
} from "@solana/kit"

const MAX_RETRY_AFTER_MS = 30_000
const MAX_ATTEMPTS = 8
/** A node that stops answering must fail the call (and so the session), not hang it. */
const REQUEST_TIMEOUT_MS = 30_000

/** Seconds or an HTTP date, as `Retry-After` allows; a missing or odd value waits one second. */
export const retryAfterMs = (header: string | null, now = Date.now()): number => {
  if (header === null) return 1_000
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1_000, MAX_RETRY_AFTER_MS)
  const date = Date.parse(header)
  return Number.isNaN(date) ? 1_000 : Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS)
}

const sleep = (ms: number, signal?: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener("abort", () => {
      clearTimeout(timer)
      reject(signal.reason)
    })
  })

type Transport = ReturnType<typeof createDefaultRpcTransport>

/** Retries a 429 after the node's `Retry-After`, a bounded number of times; other failures pass through. */
const honouringRateLimits =
  (transport: Transport): Transport =>
  async (request) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS)
        const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout])
        return await transport({ ...request, signal })
      } catch (error) {
        const rateLimited =
          isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) && error.context.statusCode === 429
        if (!rateLimited || attempt >= MAX_ATTEMPTS) throw error
        const headers = error.context.headers as Headers
        await sleep(retryAfterMs(headers.get("retry-after")), request.signal)
      }
    }
  }

export const makeRpc = (url: string) => createSolanaRpcFromTransport(honouringRateLimits(createDefaultRpcTransport({ url })))

export type SolanaRpc = ReturnType<typeof makeRpc>

/**
 * All subscriptions share one WebSocket: Solana delivers the notifications of one connection in
 * order, which is what lets a slot notification vouch for the slots before it.
 */
export const makeSubscriptions = (wsUrl: string) =>
  createSolanaRpcSubscriptionsFromTransport(
    createDefaultRpcSubscriptionsTransport({
      createChannel: createDefaultSolanaRpcSubscriptionsChannelCreator({
        url: wsUrl,
        minChannels: 1,
        maxSubscriptionsPerChannel: 1_000,
        intervalMs: 5_000
      })
    })
  )

export type SolanaSubscriptions = ReturnType<typeof makeSubscriptions>

import { parseJsonBody } from "./jsonBody.ts"

/**
 * JSON-RPC 2.0 over fetch, the engine of SolanaRpcLive: answers parsed with the platform's
 * JSON.parse (kit's bigint-preserving parser and response transformers cost more than the fetch
 * itself at thousands of transactions per second), requests sent in batches when the node takes
 * them, and rate limits honoured by every caller at once.
 */
export interface JsonRpcRequest {
  readonly method: string
  readonly params: ReadonlyArray<unknown>
}

export type JsonRpcAnswer =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly code: number; readonly message: string }

/** A call that got no result: rate limited, no usable HTTP answer, or a JSON-RPC error answer (`code`). */
export class JsonRpcFailure extends Error {
  constructor(
    message: string,
    readonly kind: "rateLimited" | "transport" | "answer",
    readonly status: number | null = null,
    readonly code: number | null = null
  ) {
    super(message)
    this.name = "JsonRpcFailure"
  }
}

export interface JsonRpcClientOptions {
  readonly url: string
  /** A node that stops answering fails the call rather than hanging it. */
  readonly timeoutMs?: number
  /** 429 answers retried (after their Retry-After) before the call fails. */
  readonly maxRateLimitedAttempts?: number
}

export interface JsonRpcCallOptions {
  /** Aborts the request (and any wait for a Retry-After). */
  readonly signal?: AbortSignal
  /** "fail": no waiting out a Retry-After: a 429, or a pause one started, fails the call at once. */
  readonly whenRateLimited?: "wait" | "fail"
}

export interface JsonRpcClient {
  readonly call: (method: string, params: ReadonlyArray<unknown>, options?: JsonRpcCallOptions) => Promise<unknown>
  /** The answers in request order; one HTTP request when the node accepts batches. */
  readonly batch: (requests: ReadonlyArray<JsonRpcRequest>, signal?: AbortSignal) => Promise<ReadonlyArray<JsonRpcAnswer>>
  /** False once the node refused a batch: requests then go one by one. */
  readonly batching: () => boolean
  /** 429 answers received so far. */
  readonly rateLimited: () => number
}

/** Per batch, when the node only takes single calls. */
const SINGLE_CALLS_IN_FLIGHT = 4
const MAX_RETRY_AFTER_MS = 30_000

/** Seconds or an HTTP date, as `Retry-After` allows; a missing or odd value waits one second. */
export const retryAfterMs = (header: string | null, now = Date.now()): number => {
  if (header === null) return 1_000
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1_000, MAX_RETRY_AFTER_MS)
  const date = Date.parse(header)
  return Number.isNaN(date) ? 1_000 : Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS)
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const aborted = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted)
      resolve()
    }, ms)
    signal?.addEventListener("abort", aborted, { once: true })
  })

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const answerOf = (value: unknown): JsonRpcAnswer => {
  if (!isRecord(value)) return { ok: false, code: -32_700, message: "not a JSON-RPC answer" }
  const error = value["error"]
  if (isRecord(error)) {
    return { ok: false, code: typeof error["code"] === "number" ? error["code"] : 0, message: String(error["message"] ?? "error") }
  }
  return { ok: true, result: value["result"] ?? null }
}

const body = (id: number, { method, params }: JsonRpcRequest) => ({ jsonrpc: "2.0", id, method, params })

export const makeJsonRpcClient = (options: JsonRpcClientOptions): JsonRpcClient => {
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxAttempts = options.maxRateLimitedAttempts ?? 20
  let nextId = 1
  let batchesAccepted = true
  let rateLimitedCount = 0
  // Shared by every caller: after a 429 nobody sends before the node's Retry-After has passed.
  let pausedUntil = 0

  /** POSTs one body; retries 429s after their Retry-After; the parsed answer. */
  const post = async (
    text: string,
    call: JsonRpcCallOptions
  ): Promise<{ readonly status: number; readonly value: unknown }> => {
    const waits = call.whenRateLimited !== "fail"
    for (let attempt = 1; ; attempt++) {
      const wait = pausedUntil - Date.now()
      if (wait > 0) {
        if (!waits) throw new JsonRpcFailure(`rate limited: the node asked to wait ${Math.ceil(wait / 1000)} s`, "rateLimited", 429)
        await sleep(wait, call.signal)
      }
      const timeout = AbortSignal.timeout(timeoutMs)
      const response = await fetch(options.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
        signal: call.signal === undefined ? timeout : AbortSignal.any([call.signal, timeout])
      })
      if (response.status === 429) {
        rateLimitedCount++
        await response.body?.cancel()
        pausedUntil = Math.max(pausedUntil, Date.now() + retryAfterMs(response.headers.get("retry-after")))
        if (!waits || attempt >= maxAttempts) throw new JsonRpcFailure(`rate limited ${attempt} times in a row`, "rateLimited", 429)
        continue
      }
      const answer = new Uint8Array(await response.arrayBuffer())
      try {
        return { status: response.status, value: parseJsonBody(answer) }
      } catch {
        throw new JsonRpcFailure(`HTTP ${response.status}: ${Buffer.from(answer.subarray(0, 200)).toString("utf8")}`, "transport", response.status)
      }
    }
  }

  const call = async (method: string, params: ReadonlyArray<unknown>, callOptions: JsonRpcCallOptions = {}): Promise<unknown> => {
    const { status, value } = await post(JSON.stringify(body(nextId++, { method, params })), callOptions)
    const answer = answerOf(value)
    if (!answer.ok) throw new JsonRpcFailure(`JSON-RPC error ${answer.code}: ${answer.message}`, "answer", status, answer.code)
    return answer.result
  }

  /** Without batches: the requests as single calls, a few at a time. */
  const oneByOne = async (requests: ReadonlyArray<JsonRpcRequest>, signal: AbortSignal | undefined): Promise<ReadonlyArray<JsonRpcAnswer>> => {
    const answers = new Array<JsonRpcAnswer>(requests.length)
    let next = 0
    const worker = async () => {
      while (next < requests.length) {
        const index = next++
        answers[index] = answerOf((await post(JSON.stringify(body(nextId++, requests[index]!)), signal === undefined ? {} : { signal })).value)
      }
    }
    await Promise.all(Array.from({ length: Math.min(SINGLE_CALLS_IN_FLIGHT, requests.length) }, worker))
    return answers
  }

  const batch = async (requests: ReadonlyArray<JsonRpcRequest>, signal?: AbortSignal): Promise<ReadonlyArray<JsonRpcAnswer>> => {
    if (requests.length === 0) return []
    if (!batchesAccepted || requests.length === 1) return oneByOne(requests, signal)
    const firstId = nextId
    nextId += requests.length
    let answered: { readonly status: number; readonly value: unknown }
    try {
      answered = await post(JSON.stringify(requests.map((request, i) => body(firstId + i, request))), signal === undefined ? {} : { signal })
    } catch (error) {
      // A node that cannot read a batch may answer with an HTTP error (400, 413) and no JSON.
      if (error instanceof JsonRpcFailure && error.kind === "transport" && error.status !== null && error.status >= 400 && error.status < 500) {
        batchesAccepted = false
        return oneByOne(requests, signal)
      }
      throw error
    }
    if (!Array.isArray(answered.value)) {
      // One error object for the whole batch: the node (or its proxy) does not take batches.
      batchesAccepted = false
      return oneByOne(requests, signal)
    }
    const byId = new Map<unknown, unknown>()
    for (const item of answered.value) if (isRecord(item)) byId.set(item["id"], item)
    return requests.map((_, i) => {
      const item = byId.get(firstId + i)
      return item === undefined ? { ok: false, code: -32_603, message: "no answer in the batch" } : answerOf(item)
    })
  }

  return { call, batch, batching: () => batchesAccepted, rateLimited: () => rateLimitedCount }
}

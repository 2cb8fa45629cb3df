import { eachJsonItem, parseJsonBody } from "./jsonBody.ts"

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

export type JsonRpcAnswer<A = unknown> =
  | { readonly ok: true; readonly result: A }
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
  /**
   * The answers in request order; one HTTP request when the node accepts batches. `decode` turns
   * each result into what the caller keeps as soon as its answer is parsed, so the parsed JSON of a
   * large batch never lives all at once (a backfill's batches would otherwise outlive young
   * collections and be copied into the old generation).
   */
  readonly batch: <A = unknown>(
    requests: ReadonlyArray<JsonRpcRequest>,
    signal?: AbortSignal,
    decode?: (result: unknown, index: number) => A
  ) => Promise<ReadonlyArray<JsonRpcAnswer<A>>>
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

  /** POSTs one body; retries 429s after their Retry-After; the answer as `parse` reads it. */
  const post = async <T>(
    text: string,
    call: JsonRpcCallOptions,
    parse: (bytes: Uint8Array) => T
  ): Promise<{ readonly status: number; readonly value: T }> => {
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
        return { status: response.status, value: parse(answer) }
      } catch (error) {
        // only a body that is no JSON; a caller's decode failing is the caller's to report
        if (!(error instanceof SyntaxError)) throw error
        throw new JsonRpcFailure(`HTTP ${response.status}: ${Buffer.from(answer.subarray(0, 200)).toString("utf8")}`, "transport", response.status)
      }
    }
  }

  const call = async (method: string, params: ReadonlyArray<unknown>, callOptions: JsonRpcCallOptions = {}): Promise<unknown> => {
    const { status, value } = await post(JSON.stringify(body(nextId++, { method, params })), callOptions, parseJsonBody)
    const answer = answerOf(value)
    if (!answer.ok) throw new JsonRpcFailure(`JSON-RPC error ${answer.code}: ${answer.message}`, "answer", status, answer.code)
    return answer.result
  }

  const decoded = <A>(answer: JsonRpcAnswer, index: number, decode: ((result: unknown, index: number) => A) | undefined): JsonRpcAnswer<A> =>
    answer.ok && decode !== undefined ? { ok: true, result: decode(answer.result, index) } : (answer as JsonRpcAnswer<A>)

  /** Without batches: the requests as single calls, a few at a time. */
  const oneByOne = async <A>(
    requests: ReadonlyArray<JsonRpcRequest>,
    signal: AbortSignal | undefined,
    decode: ((result: unknown, index: number) => A) | undefined
  ): Promise<ReadonlyArray<JsonRpcAnswer<A>>> => {
    const answers = new Array<JsonRpcAnswer<A>>(requests.length)
    let next = 0
    const worker = async () => {
      while (next < requests.length) {
        const index = next++
        const { value } = await post(JSON.stringify(body(nextId++, requests[index]!)), signal === undefined ? {} : { signal }, parseJsonBody)
        answers[index] = decoded(answerOf(value), index, decode)
      }
    }
    await Promise.all(Array.from({ length: Math.min(SINGLE_CALLS_IN_FLIGHT, requests.length) }, worker))
    return answers
  }

  const batch = async <A = unknown>(
    requests: ReadonlyArray<JsonRpcRequest>,
    signal?: AbortSignal,
    decode?: (result: unknown, index: number) => A
  ): Promise<ReadonlyArray<JsonRpcAnswer<A>>> => {
    if (requests.length === 0) return []
    if (!batchesAccepted || requests.length === 1) return oneByOne(requests, signal, decode)
    const firstId = nextId
    nextId += requests.length
    const answers = new Array<JsonRpcAnswer<A> | undefined>(requests.length)
    // Each item is parsed, matched to its request by id and decoded before the next is parsed.
    const take = (item: unknown): void => {
      const id = isRecord(item) ? item["id"] : undefined
      if (typeof id !== "number") return
      const index = id - firstId
      if (!Number.isInteger(index) || index < 0 || index >= requests.length) return
      answers[index] ??= decoded(answerOf(item), index, decode)
    }
    let isList: boolean
    try {
      const bodies = JSON.stringify(requests.map((request, i) => body(firstId + i, request)))
      isList = (await post(bodies, signal === undefined ? {} : { signal }, (bytes) => eachJsonItem(bytes, take))).value
    } catch (error) {
      // A node that cannot read a batch may answer with an HTTP error (400, 413) and no JSON.
      if (error instanceof JsonRpcFailure && error.kind === "transport" && error.status !== null && error.status >= 400 && error.status < 500) {
        batchesAccepted = false
        return oneByOne(requests, signal, decode)
      }
      throw error
    }
    if (!isList) {
      // One error object for the whole batch: the node (or its proxy) does not take batches.
      batchesAccepted = false
      return oneByOne(requests, signal, decode)
    }
    return answers.map((answer) => answer ?? { ok: false, code: -32_603, message: "no answer in the batch" })
  }

  return { call, batch, batching: () => batchesAccepted, rateLimited: () => rateLimitedCount }
}

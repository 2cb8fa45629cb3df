import { retryAfterMs } from "./rpc.ts"

/**
 * A small JSON-RPC 2.0 client over fetch for bulk reads (the history backfill): answers parsed with
 * the platform's JSON.parse (kit's bigint-preserving parser and response transformers cost more
 * than the fetch itself at thousands of transactions per second), requests sent in batches when
 * the node takes them, and rate limits honoured by every caller at once.
 */
export interface JsonRpcRequest {
  readonly method: string
  readonly params: ReadonlyArray<unknown>
}

export type JsonRpcAnswer =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly code: number; readonly message: string }

export class JsonRpcFailure extends Error {
  constructor(message: string, readonly status: number | null = null) {
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

export interface JsonRpcClient {
  readonly call: (method: string, params: ReadonlyArray<unknown>) => Promise<unknown>
  /** The answers in request order; one HTTP request when the node accepts batches. */
  readonly batch: (requests: ReadonlyArray<JsonRpcRequest>) => Promise<ReadonlyArray<JsonRpcAnswer>>
  /** False once the node refused a batch: requests then go one by one. */
  readonly batching: () => boolean
  /** 429 answers received so far. */
  readonly rateLimited: () => number
}

/** Per batch, when the node only takes single calls. */
const SINGLE_CALLS_IN_FLIGHT = 4

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const answerOf = (value: unknown): JsonRpcAnswer => {
  if (!isRecord(value)) return { ok: false, code: -32_700, message: "not a JSON-RPC answer" }
  const error = value["error"]
  if (isRecord(error)) {
    return { ok: false, code: typeof error["code"] === "number" ? error["code"] : 0, message: String(error["message"] ?? "error") }
  }
  return { ok: true, result: value["result"] ?? null }
}

export const makeJsonRpcClient = (options: JsonRpcClientOptions): JsonRpcClient => {
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxAttempts = options.maxRateLimitedAttempts ?? 20
  let nextId = 1
  let batchesAccepted = true
  let rateLimitedCount = 0
  // Shared by every caller: after a 429 nobody sends before the node's Retry-After has passed.
  let pausedUntil = 0

  /** POSTs one body; retries 429s after their Retry-After; the parsed answer. */
  const post = async (body: string): Promise<{ readonly status: number; readonly value: unknown }> => {
    for (let attempt = 1; ; attempt++) {
      const wait = pausedUntil - Date.now()
      if (wait > 0) await sleep(wait)
      const response = await fetch(options.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(timeoutMs)
      })
      if (response.status === 429) {
        rateLimitedCount++
        await response.body?.cancel()
        pausedUntil = Math.max(pausedUntil, Date.now() + retryAfterMs(response.headers.get("retry-after")))
        if (attempt >= maxAttempts) throw new JsonRpcFailure(`rate limited ${attempt} times in a row`, 429)
        continue
      }
      const text = await response.text()
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch {
        throw new JsonRpcFailure(`HTTP ${response.status}: ${text.slice(0, 200)}`, response.status)
      }
      return { status: response.status, value }
    }
  }

  const call = async (method: string, params: ReadonlyArray<unknown>): Promise<unknown> => {
    const { status, value } = await post(JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }))
    const answer = answerOf(value)
    if (!answer.ok) throw new JsonRpcFailure(`${method}: ${answer.message} (${answer.code})`, status)
    return answer.result
  }

  /** Without batches: the requests as single calls, a few at a time. */
  const oneByOne = async (requests: ReadonlyArray<JsonRpcRequest>): Promise<ReadonlyArray<JsonRpcAnswer>> => {
    const answers = new Array<JsonRpcAnswer>(requests.length)
    let next = 0
    const worker = async () => {
      while (next < requests.length) {
        const index = next++
        const { method, params } = requests[index]!
        answers[index] = answerOf((await post(JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }))).value)
      }
    }
    await Promise.all(Array.from({ length: Math.min(SINGLE_CALLS_IN_FLIGHT, requests.length) }, worker))
    return answers
  }

  const batch = async (requests: ReadonlyArray<JsonRpcRequest>): Promise<ReadonlyArray<JsonRpcAnswer>> => {
    if (requests.length === 0) return []
    if (!batchesAccepted || requests.length === 1) return oneByOne(requests)
    const firstId = nextId
    nextId += requests.length
    const body = JSON.stringify(requests.map(({ method, params }, i) => ({ jsonrpc: "2.0", id: firstId + i, method, params })))
    let answered: { readonly status: number; readonly value: unknown }
    try {
      answered = await post(body)
    } catch (error) {
      // A node that cannot read a batch may answer with an HTTP error (400, 413) and no JSON.
      if (error instanceof JsonRpcFailure && error.status !== null && error.status >= 400 && error.status < 500 && error.status !== 429) {
        batchesAccepted = false
        return oneByOne(requests)
      }
      throw error
    }
    if (!Array.isArray(answered.value)) {
      // One error object for the whole batch: the node (or its proxy) does not take batches.
      batchesAccepted = false
      return oneByOne(requests)
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

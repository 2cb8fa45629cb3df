import { JsonStream, stringifyJson, type JsonValue } from "../codec/json.ts"
import type { RpcEnvironment, RpcMethod } from "./environment.ts"
import { accountMethods } from "./accountMethods.ts"
import { chainMethods } from "./chainMethods.ts"
import { sandboxMethods } from "./sandboxMethods.ts"
import { transactionMethods } from "./transactionMethods.ts"
import { isRecord } from "./params.ts"
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError } from "./rpcError.ts"

/**
 * JSON-RPC 2.0: single requests and batches, notifications (no id, no answer), and Solana's
 * error objects. Every method runs synchronously when the request is executed, so a batch sees
 * one consistent chain; large results are serialized lazily from what the method captured.
 */
export type ParsedBody =
  | { readonly kind: "parseError" }
  | { readonly kind: "single"; readonly request: unknown }
  | { readonly kind: "batch"; readonly requests: ReadonlyArray<unknown> }

type Id = number | string | null

interface Answer {
  readonly id: Id
  readonly result?: JsonValue | JsonStream
  readonly error?: RpcError
}

const ALL_METHODS: Record<string, RpcMethod> = { ...chainMethods, ...accountMethods, ...transactionMethods, ...sandboxMethods }

export const parseBody = (body: string): ParsedBody => {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return { kind: "parseError" }
  }
  return Array.isArray(value) ? { kind: "batch", requests: value } : { kind: "single", request: value }
}

/** Method names in a parsed body (for deciding faults before running anything). */
export const methodNames = (parsed: ParsedBody): ReadonlyArray<string> => {
  const requests = parsed.kind === "single" ? [parsed.request] : parsed.kind === "batch" ? parsed.requests : []
  return requests.flatMap((request) => (isRecord(request) && typeof request["method"] === "string" ? [request["method"]] : []))
}

const errorJson = (error: RpcError): string =>
  stringifyJson({ code: error.code, message: error.message, data: error.data })

function* answerPieces(answer: Answer): Generator<string> {
  const id = stringifyJson(answer.id)
  if (answer.error !== undefined) {
    yield `{"jsonrpc":"2.0","error":${errorJson(answer.error)},"id":${id}}`
    return
  }
  const result = answer.result ?? null
  if (result instanceof JsonStream) {
    yield `{"jsonrpc":"2.0","result":`
    yield* result.pieces()
    yield `,"id":${id}}`
  } else yield `{"jsonrpc":"2.0","result":${stringifyJson(result)},"id":${id}}`
}

export class RpcDispatcher {
  constructor(
    private readonly environment: RpcEnvironment,
    private readonly methods: Record<string, RpcMethod> = ALL_METHODS
  ) {}

  /** Runs the requests now and returns the response body as lazily serialized pieces (none for notifications only). */
  execute(parsed: ParsedBody): Iterable<string> {
    if (parsed.kind === "parseError") return [`{"jsonrpc":"2.0","error":{"code":${PARSE_ERROR},"message":"Parse error"},"id":null}`]
    if (parsed.kind === "single") {
      const answer = this.run(parsed.request)
      return answer === undefined ? [] : answerPieces(answer)
    }
    if (parsed.requests.length === 0) return answerPieces({ id: null, error: new RpcError(INVALID_REQUEST, "Invalid request") })
    const answers = parsed.requests.map((request) => this.run(request)).filter((answer): answer is Answer => answer !== undefined)
    if (answers.length === 0) return []
    return (function* () {
      yield "["
      for (let index = 0; index < answers.length; index++) {
        if (index > 0) yield ","
        yield* answerPieces(answers[index]!)
      }
      yield "]"
    })()
  }

  /** Runs one request object; undefined for a notification. */
  run(request: unknown): Answer | undefined {
    if (!isRecord(request) || request["jsonrpc"] !== "2.0" || typeof request["method"] !== "string") {
      return { id: null, error: new RpcError(INVALID_REQUEST, "Invalid request") }
    }
    if (!("id" in request)) return undefined
    const rawId = request["id"]
    if (rawId !== null && typeof rawId !== "number" && typeof rawId !== "string") {
      return { id: null, error: new RpcError(INVALID_REQUEST, "Invalid request") }
    }
    const id: Id = rawId
    const method = Object.hasOwn(this.methods, request["method"]) ? this.methods[request["method"]] : undefined
    if (method === undefined) return { id, error: new RpcError(METHOD_NOT_FOUND, "Method not found") }
    const params = request["params"] ?? []
    if (!Array.isArray(params)) return { id, error: new RpcError(INVALID_PARAMS, "Invalid params: invalid type: map, expected a sequence") }
    try {
      return { id, result: method(params, this.environment) }
    } catch (error) {
      if (error instanceof RpcError) return { id, error }
      console.error(`sandbox RPC ${request["method"]} failed`, error)
      return { id, error: new RpcError(INTERNAL_ERROR, "Internal error") }
    }
  }
}

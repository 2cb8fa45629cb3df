import { stringifyJson, type JsonValue } from "../codec/json.ts"
import { readDataSlice, readEncoding } from "../rpc/accountJson.ts"
import { readFilters } from "../rpc/filters.ts"
import { isRecord, readAddress, readCommitment, readConfig, readSignature, requireParam, type Params } from "../rpc/params.ts"
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, invalidParams, METHOD_NOT_FOUND, paramError, PARSE_ERROR, RpcError } from "../rpc/rpcError.ts"
import type { Notifier } from "./notifier.ts"
import type { Connection } from "./outbox.ts"
import type { SubscriptionKind, SubscriptionRegistry } from "./subscriptions.ts"

/**
 * PubSub requests on a WebSocket: the *Subscribe methods answer with a subscription id, the
 * *Unsubscribe methods with true. JSON-RPC notifications (no id, such as kit's keep-alive
 * `ping`) get no answer. Returns the answer text, or undefined when there is none.
 */
const readMentions = (value: unknown): string | undefined => {
  if (value === "all" || value === "allWithVotes") return undefined
  if (isRecord(value) && Array.isArray(value["mentions"])) {
    if (value["mentions"].length !== 1) throw paramError("Invalid Request: Only 1 address supported")
    return readAddress(value["mentions"][0])
  }
  throw invalidParams('invalid logs filter: expected "all", "allWithVotes" or {mentions: [address]}')
}

const ALREADY_LANDED_DELAY_MS = 25

const UNSUBSCRIBE: Record<string, SubscriptionKind> = {
  accountUnsubscribe: "account",
  programUnsubscribe: "program",
  logsUnsubscribe: "logs",
  signatureUnsubscribe: "signature",
  slotUnsubscribe: "slot"
}

export const handlePubSubRequest = (text: string, connection: Connection, registry: SubscriptionRegistry, notifier: Notifier): string | undefined => {
  let request: unknown
  try {
    request = JSON.parse(text)
  } catch {
    return answer(null, undefined, new RpcError(PARSE_ERROR, "Parse error"))
  }
  if (!isRecord(request) || request["jsonrpc"] !== "2.0" || typeof request["method"] !== "string") {
    return answer(null, undefined, new RpcError(INVALID_REQUEST, "Invalid request"))
  }
  if (!("id" in request)) return undefined
  const rawId = request["id"]
  const id = typeof rawId === "number" || typeof rawId === "string" ? rawId : null
  const params = request["params"] ?? []
  if (!Array.isArray(params)) return answer(id, undefined, new RpcError(INVALID_PARAMS, "Invalid params: invalid type: map, expected a sequence"))
  try {
    return answer(id, run(request["method"], params, connection, registry, notifier))
  } catch (error) {
    if (error instanceof RpcError) return answer(id, undefined, error)
    console.error(`sandbox PubSub ${request["method"]} failed`, error)
    return answer(id, undefined, new RpcError(INTERNAL_ERROR, "Internal error"))
  }
}

const run = (method: string, params: Params, connection: Connection, registry: SubscriptionRegistry, notifier: Notifier): JsonValue => {
  const unsubscribeKind = Object.hasOwn(UNSUBSCRIBE, method) ? UNSUBSCRIBE[method] : undefined
  if (unsubscribeKind !== undefined) {
    const id = requireParam(params, 0, "a subscription id")
    if (typeof id !== "number" || !registry.remove(id, unsubscribeKind, connection)) throw paramError("Invalid subscription id.")
    return true
  }
  switch (method) {
    case "accountSubscribe": {
      const address = readAddress(requireParam(params, 0, "an address"))
      const config = readConfig(params[1])
      const encoding = readEncoding(config["encoding"], "binary")
      const slice = readDataSlice(config["dataSlice"])
      const commitment = readCommitment(config["commitment"])
      return registry.add((id) => ({ kind: "account", id, connection, commitment, address, encoding, slice })).id
    }
    case "programSubscribe": {
      const programId = readAddress(requireParam(params, 0, "a program id"))
      const config = readConfig(params[1])
      const encoding = readEncoding(config["encoding"], "binary")
      const slice = readDataSlice(config["dataSlice"])
      const filters = readFilters(config["filters"])
      const commitment = readCommitment(config["commitment"])
      return registry.add((id) => ({ kind: "program", id, connection, commitment, programId, encoding, slice, filters })).id
    }
    case "logsSubscribe": {
      const mentions = readMentions(requireParam(params, 0, "a logs filter"))
      const commitment = readCommitment(readConfig(params[1])["commitment"])
      return registry.add((id) => ({ kind: "logs", id, connection, commitment, mentions })).id
    }
    case "signatureSubscribe": {
      const signature = readSignature(requireParam(params, 0, "a signature"))
      const commitment = readCommitment(readConfig(params[1])["commitment"])
      const subscription = registry.add((id) => ({ kind: "signature", id, connection, commitment, signature }))
      // An already landed transaction is announced shortly after the answer, not in the same
      // read: kit starts listening for a subscription's notifications only once it has the
      // answer, so a notification that arrives with it would be lost (a node, too, announces it
      // from its notification thread, not with the answer).
      setTimeout(() => {
        if (subscription.kind === "signature" && registry.has(subscription.id)) notifier.signatureSubscribed(subscription)
      }, ALREADY_LANDED_DELAY_MS).unref()
      return subscription.id
    }
    case "slotSubscribe":
      return registry.add((id) => ({ kind: "slot", id, connection, commitment: "processed" })).id
    default:
      throw new RpcError(METHOD_NOT_FOUND, "Method not found")
  }
}

const answer = (id: number | string | null, result: JsonValue | undefined, error?: RpcError): string =>
  error === undefined
    ? `{"jsonrpc":"2.0","result":${stringifyJson(result ?? null)},"id":${stringifyJson(id)}}`
    : `{"jsonrpc":"2.0","error":${stringifyJson({ code: error.code, message: error.message, data: error.data })},"id":${stringifyJson(id)}}`

import { Either, Schema } from "effect"
import type { WsErrorCode } from "../errors/codes.ts"
import { TopicsMessage } from "./messages.ts"

/**
 * The `/v2/stream` WebSocket protocol, version 1 (also described in the README; its messages as
 * schemas in ./messages.ts, published as the AsyncAPI document `/asyncapi.json`).
 *
 * Connect with the partner key (`x-api-key: <key>` or `Authorization: Bearer <key>`) in the upgrade
 * request; a missing or bad key is refused with the REST API's 401/403 (429 over the key's
 * connection limit). Every frame is one JSON text message.
 *
 * Client -> server:
 * - `{"op":"subscribe","id":<any JSON>,"topics":["vault:<address>", ...]}`
 * - `{"op":"unsubscribe","id":<any JSON>,"topics":[...]}` (answered with `unsubscribed`)
 * - `{"op":"ping"}` (answered with `pong`)
 *
 * Topics:
 * - `vault:<address>`: the vault record of `GET /v2/vault/{address}` (its `data`)
 * - `user:<vault>:<wallet>`: the balance of `GET /v2/vault/{vault}/user/{wallet}/balance`; `null`
 *   while the wallet has no position in the vault
 * - `referrer:<address>`: the builder summary of `GET /v2/referrer/{address}/summary` (its `data`)
 * - `status`: the projection status and lag of `GET /status`
 * - `slots`: `{slot, blockTime}` each time the projection has applied changes of a newer slot
 *
 * Server -> client:
 * - `subscribed {id, topic, seq, asOf, data}`: a full snapshot. `seq` is the topic's current sequence
 *   number (0 for a topic nobody has followed yet); the next `update` of the topic has `seq + 1`.
 * - `update {topic, seq, asOf, data}`: the topic's new value, in slot order, `seq` one higher than
 *   the last one of the topic. A gap means a bug: resubscribe. Sent only when the value differs from
 *   the previous one; values moved by chain time alone are re-sent, when they differ, each time the
 *   chain's block time advances.
 * - `unsubscribed {id, topics}`
 * - `status {data}`: sent to every connection when the projection's phase changes. While it is not
 *   live, data topics are held: no snapshot, no update, never zeros; when it is live again each held
 *   topic gets a fresh `subscribed` (a new baseline: continue from its `seq`).
 * - `resync {topics}`: the server could not keep up with this connection (too much unread data);
 *   updates of those topics stop and, once the connection has drained, each gets a fresh `subscribed`.
 * - `error {id?, code, message}`: a rejected client message; the connection stays open.
 * - `pong`
 *
 * Close codes: 4008 the connection went over the close limit (see `WsLimits`); 1009 a client
 * message over the transport's hard size limit; 1001 server shutting down.
 */
export const PROTOCOL_VERSION = 1

export const CLOSE_BACKPRESSURE = 4008

export type ClientMessage =
  | { readonly op: "subscribe"; readonly id: unknown; readonly topics: ReadonlyArray<string> }
  | { readonly op: "unsubscribe"; readonly id: unknown; readonly topics: ReadonlyArray<string> }
  | { readonly op: "ping" }

export interface ProtocolError {
  /** An `error` frame code of the error-code registry (src/errors/codes.ts). */
  readonly code: WsErrorCode
  readonly message: string
  readonly id?: unknown
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const decodeTopicsMessage = Schema.decodeUnknownEither(TopicsMessage)

/** Decodes one client frame; never throws. */
export const decodeClientMessage = (text: string): ClientMessage | ProtocolError => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { code: "MALFORMED_JSON", message: "the message is not valid JSON" }
  }
  if (!isObject(parsed)) return { code: "INVALID_MESSAGE", message: "expected a JSON object with an op" }
  const { op } = parsed
  if (op === "ping") return { op }
  if (op !== "subscribe" && op !== "unsubscribe") {
    return {
      code: "UNKNOWN_OP",
      message: `unknown op ${JSON.stringify(op)?.slice(0, 40) ?? "undefined"}; expected subscribe, unsubscribe or ping`,
      id: parsed.id
    }
  }
  const decoded = decodeTopicsMessage(parsed)
  if (Either.isLeft(decoded)) {
    return { code: "INVALID_MESSAGE", message: `${op}: topics must be a non-empty array of topic strings`, id: parsed.id }
  }
  return { op, id: parsed.id ?? null, topics: [...new Set(decoded.right.topics)] }
}

export const isProtocolError = (value: ClientMessage | ProtocolError): value is ProtocolError => "code" in value

// Server frames. Each is encoded with JSON.stringify once, wherever it goes.

export const errorFrame = (error: ProtocolError): string =>
  JSON.stringify({ type: "error", ...(error.id === undefined ? {} : { id: error.id }), code: error.code, message: error.message })

export const pongFrame = JSON.stringify({ type: "pong" })

export const subscribedFrame = (id: unknown, topic: string, seq: number, asOf: unknown, data: unknown): string =>
  JSON.stringify({ type: "subscribed", id, topic, seq, asOf, data })

export const updateFrame = (topic: string, seq: number, asOf: unknown, data: unknown): string =>
  JSON.stringify({ type: "update", topic, seq, asOf, data })

/** An update frame's text up to its data, from its topic and asOf each already encoded as JSON. */
export const updateFrameHead = (topicJson: string, seq: number, asOfJson: string): string =>
  `{"type":"update","topic":${topicJson},"seq":${seq},"asOf":${asOfJson},"data":`

/** The same frame as `updateFrame`, from its topic, asOf and data each already encoded as JSON. */
export const updateFrameOfJson = (topicJson: string, seq: number, asOfJson: string, dataJson: string): string =>
  `${updateFrameHead(topicJson, seq, asOfJson)}${dataJson}}`

export const unsubscribedFrame = (id: unknown, topics: ReadonlyArray<string>): string =>
  JSON.stringify({ type: "unsubscribed", id, topics })

export const statusFrame = (data: unknown): string => JSON.stringify({ type: "status", data })

export const resyncFrame = (topics: ReadonlyArray<string>): string => JSON.stringify({ type: "resync", topics })

import { Schema } from "effect"
import { AsOf } from "../api/schemas.ts"
import { StatusBody } from "../api/system/statusBody.ts"
import { Balance } from "../api/users/balance.ts"
import { ReferrerSummary } from "../api/referrers/ReferrerSummary.ts"
import { VaultRecord } from "../api/vaults/VaultRecord.ts"
import { WS_ERROR_CODES } from "../errors/codes.ts"

/**
 * The `/v2/stream` messages as Effect Schemas: the server decodes client messages with these
 * (src/ws/protocol.ts), topic data are the REST reads' own schemas, and `/asyncapi.json` is
 * generated from them (src/ws/asyncApi.ts).
 */

/** Longest topic name a client may send. */
export const MAX_TOPIC_LENGTH = 200

const BASE58 = "[1-9A-HJ-NP-Za-km-z]{32,44}"

const TopicName = Schema.String.pipe(Schema.maxLength(MAX_TOPIC_LENGTH)).annotations({
  identifier: "WsTopicName",
  description: "vault:<vault>, user:<vault>:<wallet>, referrer:<wallet>, status or slots (addresses in base58)"
})
const TopicList = Schema.NonEmptyArray(TopicName)
/** Any JSON value; echoed in the answer. */
const RequestId = Schema.Unknown.annotations({ description: "any JSON value, echoed in the answer" })

export const SubscribeMessage = Schema.Struct({
  op: Schema.Literal("subscribe"),
  id: Schema.optional(RequestId),
  topics: TopicList
}).annotations({ identifier: "WsSubscribe", description: "Follow topics: one subscribed snapshot per topic, then its updates" })

export const UnsubscribeMessage = Schema.Struct({
  op: Schema.Literal("unsubscribe"),
  id: Schema.optional(RequestId),
  topics: TopicList
}).annotations({ identifier: "WsUnsubscribe", description: "Stop following topics (answered with unsubscribed)" })

export const PingMessage = Schema.Struct({ op: Schema.Literal("ping") }).annotations({
  identifier: "WsPing",
  description: "Answered with pong"
})

export const TopicsMessage = Schema.Union(SubscribeMessage, UnsubscribeMessage)

const topicPattern = (pattern: string, identifier: string, description: string) =>
  Schema.String.pipe(Schema.pattern(new RegExp(`^${pattern}$`))).annotations({ identifier, description })

/** Each topic kind: its name pattern, the `asOf` it carries and its data (the REST read's `data`). */
const TOPIC_KINDS = [
  {
    kind: "Vault",
    topic: topicPattern(`vault:${BASE58}`, "WsVaultTopic", "vault:<vault address>"),
    asOf: AsOf,
    data: VaultRecord,
    description: "data: the data of GET /v2/vault/{vaultAddress}"
  },
  {
    kind: "User",
    topic: topicPattern(`user:${BASE58}:${BASE58}`, "WsUserTopic", "user:<vault address>:<wallet>"),
    asOf: AsOf,
    data: Schema.NullOr(Balance),
    description: "data: the data of GET /v2/vault/{vaultAddress}/user/{wallet}/balance; null while the wallet has no position in the vault"
  },
  {
    kind: "Referrer",
    topic: topicPattern(`referrer:${BASE58}`, "WsReferrerTopic", "referrer:<builder wallet>"),
    asOf: AsOf,
    data: ReferrerSummary,
    description: "data: the data of GET /v2/referrer/{address}/summary"
  },
  {
    kind: "Status",
    topic: Schema.Literal("status"),
    asOf: Schema.NullOr(AsOf),
    data: StatusBody,
    description: "data: the body of GET /status; asOf null while the projection has none"
  },
  {
    kind: "Slots",
    topic: Schema.Literal("slots"),
    asOf: AsOf,
    data: AsOf,
    description: "data: the newest slot whose changes the projection has applied, and its block time"
  }
] as const

const Seq = Schema.NonNegativeInt.annotations({ description: "the topic's sequence number on the server" })

export const SubscribedMessage = Schema.Union(
  ...TOPIC_KINDS.map(({ asOf, data, description, kind, topic }) =>
    Schema.Struct({ type: Schema.Literal("subscribed"), id: RequestId, topic, seq: Seq, asOf, data }).annotations({
      identifier: `WsSubscribed${kind}`,
      description
    }))
).annotations({
  identifier: "WsSubscribed",
  description: "A full snapshot of a topic: an answer to subscribe, or a new baseline after a resync or once the projection is live again"
})

export const UpdateMessage = Schema.Union(
  ...TOPIC_KINDS.map(({ asOf, data, description, kind, topic }) =>
    Schema.Struct({ type: Schema.Literal("update"), topic, seq: Seq, asOf, data }).annotations({ identifier: `WsUpdate${kind}`, description }))
).annotations({
  identifier: "WsUpdate",
  description: "A topic's new value, in slot order, seq one higher than the topic's previous frame; equals the REST read at its asOf"
})

export const UnsubscribedMessage = Schema.Struct({
  type: Schema.Literal("unsubscribed"),
  id: RequestId,
  topics: Schema.Array(TopicName)
}).annotations({ identifier: "WsUnsubscribed" })

export const StatusMessage = Schema.Struct({ type: Schema.Literal("status"), data: StatusBody }).annotations({
  identifier: "WsStatus",
  description: "Sent to every connection when the projection's phase changes; data topics are held while it is not live"
})

export const ResyncMessage = Schema.Struct({ type: Schema.Literal("resync"), topics: Schema.Array(TopicName) }).annotations({
  identifier: "WsResync",
  description: "The server could not keep up with this connection: updates of these topics stop until a new subscribed snapshot"
})

export const WsErrorCodeSchema = Schema.Literal(...WS_ERROR_CODES).annotations({ identifier: "WsErrorCode" })

export const ErrorMessage = Schema.Struct({
  type: Schema.Literal("error"),
  id: Schema.optional(RequestId),
  code: WsErrorCodeSchema,
  message: Schema.String
}).annotations({ identifier: "WsError", description: "A rejected client message; the connection stays open" })

export const PongMessage = Schema.Struct({ type: Schema.Literal("pong") }).annotations({ identifier: "WsPong" })

/** Every client message, by its name in the AsyncAPI document. */
export const CLIENT_MESSAGES = { subscribe: SubscribeMessage, unsubscribe: UnsubscribeMessage, ping: PingMessage } as const

/** Every server message, by its name in the AsyncAPI document (and its `type`). */
export const SERVER_MESSAGES = {
  subscribed: SubscribedMessage,
  update: UpdateMessage,
  unsubscribed: UnsubscribedMessage,
  status: StatusMessage,
  resync: ResyncMessage,
  error: ErrorMessage,
  pong: PongMessage
} as const

/** WebSocket close codes the server uses, and why. */
export const CLOSE_CODES = [
  { code: 1001, reason: "the server is shutting down" },
  { code: 1009, reason: "a client message over the transport's hard size limit (4 x WS_MAX_MESSAGE_BYTES, at least 64 KiB)" },
  { code: 4008, reason: "the connection's unsent data went over WS_CLOSE_ABOVE_BYTES (it does not read fast enough)" }
] as const

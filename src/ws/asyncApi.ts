import { JSONSchema, type Schema } from "effect"
import { ERROR_CODES, WS_ERROR_CODES } from "../errors/codes.ts"
import { VERSION } from "../version.ts"
import { CLIENT_MESSAGES, CLOSE_CODES, SERVER_MESSAGES } from "./messages.ts"
import { PROTOCOL_VERSION } from "./protocol.ts"

/** Where the payload schemas' shared definitions live in the document. */
const DEFINITIONS = "#/components/schemas/"

type Json = Record<string, unknown>

const CHANNEL = "#/channels/stream"

const description = [
  "The /v2/stream WebSocket of vault-gateway (protocol version " + PROTOCOL_VERSION + "), on the same host and port as the REST API " +
  "(/openapi.json). Open it with the partner key in the upgrade request (x-api-key or Authorization: Bearer); a missing or " +
  "unknown key is refused with the REST API's 401 (403 for a key of another environment or without the stream scope, 429 " +
  "over the key's quota or connection limit); a GET without the upgrade is 426 UPGRADE_REQUIRED. Every frame is one JSON " +
  "text message.",
  "Close codes: " + CLOSE_CODES.map(({ code, reason }) => `${code} ${reason}`).join("; ") + ".",
  "Error codes of error frames: " + WS_ERROR_CODES.map((code) => `${code} (${ERROR_CODES[code].meaning})`).join("; ") + "."
].join("\n\n")

/**
 * Effect marks `Schema.Unknown` with `$id: "/schemas/unknown"`: the same id at many places is an
 * ambiguous reference target for validators, and the mark says nothing the empty schema does not.
 */
const withoutBuiltinIds = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutBuiltinIds)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, inner]) =>
      key === "$id" && typeof inner === "string" && inner.startsWith("/schemas/") ? [] : [[key, withoutBuiltinIds(inner)]])
  )
}

/**
 * The AsyncAPI 3.0 document of the stream, generated from the schemas the server uses
 * (./messages.ts). Shared definitions (the REST records) go to `components.schemas`, each message's
 * payload refers to them.
 */
export const asyncApiDocument = (): Json => {
  const schemas: Record<string, JSONSchema.JsonSchema7> = {}
  const payload = (schema: Schema.Schema.Any) =>
    JSONSchema.fromAST(schema.ast, { definitions: schemas, definitionPath: DEFINITIONS, target: "jsonSchema7" })
  const message = (name: string, schema: Schema.Schema.Any, title: string) => ({ name, title, contentType: "application/json", payload: payload(schema) })
  const messages: Json = {}
  for (const [name, schema] of Object.entries(CLIENT_MESSAGES)) messages[name] = message(name, schema, `client: ${name}`)
  for (const [name, schema] of Object.entries(SERVER_MESSAGES)) messages[name] = message(name, schema, `server: ${name}`)
  const messageRef = (name: string) => ({ $ref: `${CHANNEL}/messages/${name}` })
  const security = [{ $ref: "#/components/securitySchemes/apiKey" }, { $ref: "#/components/securitySchemes/bearer" }]
  const operation = (action: "send" | "receive", names: ReadonlyArray<string>, summary: string, reply?: ReadonlyArray<string>) => ({
    action,
    channel: { $ref: CHANNEL },
    summary,
    security,
    messages: names.map(messageRef),
    ...(reply === undefined ? {} : { reply: { channel: { $ref: CHANNEL }, messages: reply.map(messageRef) } })
  })
  return withoutBuiltinIds({
    asyncapi: "3.0.0",
    info: { title: "vault-gateway stream", version: VERSION, description },
    defaultContentType: "application/json",
    channels: {
      stream: {
        address: "/v2/stream",
        title: "Topic stream",
        description: "Topics: vault:<vault>, user:<vault>:<wallet>, referrer:<wallet>, status, slots. Each subscribe is a request " +
          "against the key's quota. Answers keep the order of the client's messages.",
        messages,
        bindings: {
          ws: {
            method: "GET",
            headers: {
              type: "object",
              properties: {
                "x-api-key": { type: "string", description: "the partner key" },
                authorization: { type: "string", description: "Bearer <partner key>" }
              }
            },
            bindingVersion: "0.1.0"
          }
        },
        "x-close-codes": CLOSE_CODES
      }
    },
    // The document describes the server: it receives the client's messages and sends its own.
    operations: {
      subscribe: operation("receive", ["subscribe"], "Follow topics", ["subscribed", "error"]),
      unsubscribe: operation("receive", ["unsubscribe"], "Stop following topics", ["unsubscribed", "error"]),
      ping: operation("receive", ["ping"], "Liveness check", ["pong"]),
      updates: operation("send", ["update", "subscribed", "resync"], "Topic snapshots and updates"),
      status: operation("send", ["status"], "Projection phase changes, to every connection"),
      errors: operation("send", ["error"], "A rejected client message (the connection stays open)")
    },
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: "httpApiKey", name: "x-api-key", in: "header", description: "partner key" },
        bearer: { type: "http", scheme: "bearer", description: "partner key as a bearer token" }
      }
    }
  }) as Json
}

import type { ContractFixtures } from "./fixtures.ts"
import { deref, type OpenApiDocument, type Operation, type Parameter } from "./openApiDocument.ts"
import type { Prng } from "./prng.ts"
import { valueFor } from "./schemaValues.ts"

/** One request to send, before credentials that need the server (a session cookie) are resolved. */
export interface PlannedRequest {
  readonly operation: Operation
  /** `valid`, or the hostile variant, e.g. `query:impossible-date`. */
  readonly variant: string
  readonly method: string
  /** Path and query, already encoded. */
  readonly target: string
  readonly headers: Record<string, string>
  readonly body?: string | Uint8Array
  /** Send the operation's session cookie (resolved at send time). */
  readonly withSession: boolean
}

const BAD_BASE58 = ["0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl", "abc", "1111111111111111111111111111111111111111111111111111", "%00", "%E2%82", "%20", "-1", "null", "__proto__", "😀"]
const JUNK = ["", "abc", "-1", "0", "1e3", "0x10", "1.5", "NaN", "Infinity", "99999999999999999999999999", "true", "%00", "%FF", "[]", "{}", "a".repeat(300)]
const IMPOSSIBLE_DATES = ["2026-13-01", "2026-11-32", "2026-00-10", "2026-99-99", "2026-02-30", "2026-1-1", "20260101", "2026-01-01T00:00:00Z", "0000-00-00", "9999-12-31", "-2026-01-01"]
const OUT_OF_RANGE = ["0", "101", "-1", "1000000", "2.5", "1e2", "00", "+5", " 5"]
const BAD_CURSORS = ["x", "eyJ9", "A".repeat(500), "%00", "null"]
const BAD_AUTHORIZATION = ["Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer a b", "bearer", "Token abc", "Bearer " + "k".repeat(600)]

const enc = encodeURIComponent

export interface PlanContext {
  readonly document: OpenApiDocument
  readonly fixtures: ContractFixtures
  readonly random: Prng
}

const knownFor = (context: PlanContext, operation: Operation) => ({ ...context.fixtures.values, ...context.fixtures.perOperation?.[operation.id] })

const isStateChanging = (operation: Operation) => !["GET", "HEAD", "OPTIONS"].includes(operation.method)

const schemeOf = (document: OpenApiDocument, name: string) => document.components?.securitySchemes?.[name]

/** The credential headers of a valid request: one of the operation's schemes, with a working credential. */
const credentialHeaders = (context: PlanContext, operation: Operation): { headers: Record<string, string>; withSession: boolean } => {
  if (operation.security.length === 0) return { headers: {}, withSession: false }
  const scheme = schemeOf(context.document, context.random.pick(operation.security))
  const key = context.fixtures.credentials.apiKeys.length > 0 ? context.random.pick(context.fixtures.credentials.apiKeys) : "none"
  if (scheme?.type === "http" && scheme.scheme === "bearer") return { headers: { authorization: `Bearer ${key}` }, withSession: false }
  if (scheme?.type === "apiKey" && scheme.in === "header") return { headers: { [scheme.name.toLowerCase()]: key }, withSession: false }
  if (scheme?.type === "apiKey" && scheme.in === "cookie") return { headers: {}, withSession: true }
  return { headers: {}, withSession: false }
}

const paramValue = (context: PlanContext, operation: Operation, parameter: Parameter): string => {
  const value = valueFor(context.document, parameter.schema, context.random, knownFor(context, operation), parameter.name)
  return typeof value === "string" ? value : JSON.stringify(value)
}

const bodyOf = (context: PlanContext, operation: Operation): { contentType: string; value: unknown } | null => {
  if (operation.body === null) return null
  const contentType = Object.keys(operation.body.content)[0] ?? "application/json"
  const examples = context.fixtures.bodies?.[operation.id]
  if (examples !== undefined && examples.length > 0 && context.random.chance(0.8)) return { contentType, value: context.random.pick(examples) }
  const schema = operation.body.content[contentType]?.schema ?? {}
  return { contentType, value: valueFor(context.document, schema, context.random, knownFor(context, operation)) }
}

interface Draft {
  path: Record<string, string>
  query: Array<[string, string]>
  /** Query text appended as is (malformed percent-escapes and separators). */
  rawQuery?: string
  headers: Record<string, string>
  body?: string | Uint8Array
  withSession: boolean
}

/** A valid request of the operation: known values, generated parameters and body, a working credential. */
const validDraft = (context: PlanContext, operation: Operation): Draft => {
  const { random } = context
  const path: Record<string, string> = {}
  const query: Array<[string, string]> = []
  const credentials = credentialHeaders(context, operation)
  const headers: Record<string, string> = { ...credentials.headers }
  for (const parameter of operation.parameters) {
    if (!parameter.required && context.fixtures.omit?.includes(parameter.name)) continue
    if (parameter.in === "path") path[parameter.name] = paramValue(context, operation, parameter)
    else if (parameter.in === "query" && (parameter.required || random.chance(0.5))) query.push([parameter.name, paramValue(context, operation, parameter)])
    else if (parameter.in === "header" && (parameter.required || random.chance(0.5))) headers[parameter.name.toLowerCase()] = paramValue(context, operation, parameter)
  }
  if (isStateChanging(operation) && context.fixtures.credentials.origin !== undefined) headers.origin = context.fixtures.credentials.origin
  const body = bodyOf(context, operation)
  const draft: Draft = { path, query, headers, withSession: credentials.withSession }
  if (body !== null) {
    headers["content-type"] = body.contentType
    draft.body = JSON.stringify(body.value)
  }
  return draft
}

type Mutation = (context: PlanContext, operation: Operation, draft: Draft) => void

const pathParams = (operation: Operation) => operation.parameters.filter((p) => p.in === "path")
const queryParams = (operation: Operation) => operation.parameters.filter((p) => p.in === "query")
const isDateParam = (document: OpenApiDocument, parameter: Parameter) => {
  const schema = deref(document, parameter.schema)
  return /date/i.test(parameter.name) || schema?.format === "date"
}

/** The draft's JSON body as an object to mutate (an empty one when it is not an object). */
const bodyObject = (draft: Draft): Record<string, unknown> => {
  let value: unknown
  try {
    value = JSON.parse(typeof draft.body === "string" ? draft.body : "{}")
  } catch {
    value = {}
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

const setJsonBody = (draft: Draft, object: Record<string, unknown>) => {
  draft.headers["content-type"] = "application/json"
  draft.body = JSON.stringify(object)
}

/** Hostile variants, each applicable to some operations. */
const MUTATIONS: Record<string, { applies: (operation: Operation, context: PlanContext) => boolean; apply: Mutation }> = {
  "path:bad-value": {
    applies: (operation) => pathParams(operation).length > 0,
    apply: ({ random }, operation, draft) => {
      draft.path[random.pick(pathParams(operation)).name] = random.pick(BAD_BASE58)
    }
  },
  "path:overlong": {
    applies: (operation) => pathParams(operation).length > 0,
    apply: ({ random }, operation, draft) => {
      draft.path[random.pick(pathParams(operation)).name] = "1".repeat(random.pick([45, 200, 2_000, 9_000]))
    }
  },
  "path:unknown": {
    applies: (operation, context) => pathParams(operation).some((p) => (context.fixtures.unknown[p.name] ?? []).length > 0),
    apply: (context, operation, draft) => {
      const parameter = context.random.pick(pathParams(operation).filter((p) => (context.fixtures.unknown[p.name] ?? []).length > 0))
      draft.path[parameter.name] = context.random.pick(context.fixtures.unknown[parameter.name]!)
    }
  },
  "query:ill-typed": {
    applies: (operation) => queryParams(operation).length > 0,
    apply: ({ random }, operation, draft) => {
      const name = random.pick(queryParams(operation)).name
      draft.query = [...draft.query.filter(([n]) => n !== name), [name, random.pick(JUNK)]]
    }
  },
  "query:out-of-range": {
    applies: (operation) => queryParams(operation).some((p) => p.name === "limit" || /Raw$/.test(p.name)),
    apply: ({ random }, operation, draft) => {
      const name = random.pick(queryParams(operation).filter((p) => p.name === "limit" || /Raw$/.test(p.name))).name
      draft.query = [...draft.query.filter(([n]) => n !== name), [name, random.pick([...OUT_OF_RANGE, "-5", "340282366920938463463374607431768211456"])]]
    }
  },
  "query:duplicated": {
    applies: (operation) => queryParams(operation).length > 0,
    apply: (context, operation, draft) => {
      const parameter = context.random.pick(queryParams(operation))
      draft.query.push([parameter.name, paramValue(context, operation, parameter)], [parameter.name, paramValue(context, operation, parameter)])
    }
  },
  "query:impossible-date": {
    applies: (operation, context) => queryParams(operation).some((p) => isDateParam(context.document, p)),
    apply: (context, operation, draft) => {
      const name = context.random.pick(queryParams(operation).filter((p) => isDateParam(context.document, p))).name
      draft.query = [...draft.query.filter(([n]) => n !== name), [name, context.random.pick(IMPOSSIBLE_DATES)]]
    }
  },
  "query:reversed-range": {
    applies: (operation) => ["startDate", "endDate"].every((name) => queryParams(operation).some((p) => p.name === name)),
    apply: (_, __, draft) => {
      draft.query = [...draft.query.filter(([n]) => n !== "startDate" && n !== "endDate"), ["startDate", "2026-05-02"], ["endDate", "2026-05-01"]]
    }
  },
  "query:bad-cursor": {
    applies: (operation) => queryParams(operation).some((p) => p.name === "cursor"),
    apply: ({ random }, _, draft) => {
      draft.query = [...draft.query.filter(([n]) => n !== "cursor"), ["cursor", random.pick(BAD_CURSORS)]]
    }
  },
  "query:unknown-param": {
    applies: () => true,
    apply: ({ random }, _, draft) => {
      draft.query.push([random.pick(["foo", "__proto__", "constructor", "limit[]", "a".repeat(100)]), random.pick(JUNK)])
    }
  },
  "query:raw-junk": {
    applies: () => true,
    apply: ({ random }, _, draft) => {
      draft.rawQuery = random.pick(["a=%ZZ", "%", "=&&=", "&&&", "limit=%E2%82", "a[b]=1", "=x", "x", "%00=%00", "limit=1;cursor=2", "+=+"])
    }
  },
  "header:oversize": {
    applies: () => true,
    apply: ({ random }, _, draft) => {
      draft.headers["x-padding"] = "p".repeat(random.pick([9_000, 20_000, 70_000]))
    }
  },
  "header:bad-authorization": {
    applies: () => true,
    apply: ({ random }, _, draft) => {
      delete draft.headers["x-api-key"]
      draft.headers.authorization = random.pick(BAD_AUTHORIZATION)
    }
  },
  "header:bad-idempotency-key": {
    applies: (operation) => operation.parameters.some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key"),
    apply: ({ random }, _, draft) => {
      draft.headers["idempotency-key"] = random.pick(["", " ", "k".repeat(300), "a b", "\t"])
    }
  },
  "header:accept-other": {
    applies: () => true,
    apply: ({ random }, _, draft) => {
      draft.headers.accept = random.pick(["text/html", "application/xml", "*/*;q=0", "image/png"])
    }
  },
  "body:malformed-json": {
    applies: (operation) => operation.body !== null,
    apply: ({ random }, _, draft) => {
      draft.headers["content-type"] = "application/json"
      draft.body = random.pick(["{", "{\"a\":", "nul", "{'a':1}", "[1,2", "\u0000", "{\"a\":1}}", "\"unterminated", "{\"userAddress\": NaN}"])
    }
  },
  "body:not-an-object": {
    applies: (operation) => operation.body !== null,
    apply: ({ random }, _, draft) => {
      draft.headers["content-type"] = "application/json"
      draft.body = random.pick(["[]", "1", "\"s\"", "null", "true", "[{}]", "-0", "1e400"])
    }
  },
  "body:wrong-content-type": {
    applies: (operation) => operation.body !== null,
    apply: ({ random }, _, draft) => {
      draft.headers["content-type"] = random.pick(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/json; charset=latin1"])
    }
  },
  "body:missing": {
    applies: (operation) => operation.body !== null,
    apply: ({ random }, _, draft) => {
      delete draft.body
      if (random.chance(0.5)) delete draft.headers["content-type"]
    }
  },
  "body:oversize": {
    applies: (operation) => operation.body !== null,
    apply: ({ random }, _, draft) => {
      draft.headers["content-type"] = "application/json"
      draft.body = JSON.stringify({ padding: "x".repeat(random.pick([5_000, 70_000, 1_100_000])) })
    }
  },
  "body:wrong-types": {
    applies: (operation) => operation.body !== null,
    apply: ({ random }, _, draft) => {
      const object = bodyObject(draft)
      const keys = Object.keys(object)
      const junk = random.pick<unknown>([1, -1, 1.5, true, null, [], {}, "", "x".repeat(200), { $gt: 1 }, "0OIl", 1e308])
      if (keys.length > 0 && random.chance(0.7)) object[random.pick(keys)] = junk
      else object[random.pick(["unexpected", "__proto__", "constructor"])] = junk
      setJsonBody(draft, object)
    }
  },
  "body:control-character": {
    // PostgreSQL refuses a NUL in text: a string field that reaches it unchecked answered 500
    applies: (operation) => operation.body !== null,
    apply: ({ random }, _, draft) => {
      const object = bodyObject(draft)
      const strings = Object.keys(object).filter((key) => typeof object[key] === "string")
      const key = strings.length > 0 ? random.pick(strings) : "name"
      const text = typeof object[key] === "string" ? (object[key] as string) : "x"
      const at = random.int(0, text.length)
      object[key] = text.slice(0, at) + random.pick(["\u0000", "\u0007", "\u001b", "\u007f"]) + text.slice(at)
      setJsonBody(draft, object)
    }
  },
  "body:odd-json": {
    applies: (operation) => operation.body !== null,
    apply: ({ random }, _, draft) => {
      const valid = typeof draft.body === "string" ? draft.body : "{}"
      draft.headers["content-type"] = "application/json"
      draft.body = random.pick([
        `\ufeff${valid}`,
        valid.startsWith("{") && valid.length > 2 ? `{"userAddress":"x",${valid.slice(1)}` : `{"a":1,"a":2}`,
        ` \n${valid}\n `,
        valid.replace(/"(\d+)"/, "$1e400"),
        valid.replace(/"(\d+)"/, "-$1"),
        valid.replace(/"$/, "\\ud800\""),
        "{\"__proto__\":{\"polluted\":true}}"
      ])
    }
  },
  "body:deep": {
    applies: (operation) => operation.body !== null,
    apply: ({ random }, _, draft) => {
      const depth = random.pick([100, 3_000])
      draft.headers["content-type"] = "application/json"
      draft.body = "[".repeat(depth) + "]".repeat(depth)
    }
  },
  "credential:missing": {
    applies: (operation) => operation.security.length > 0,
    apply: (_, __, draft) => {
      delete draft.headers["x-api-key"]
      delete draft.headers.authorization
      draft.withSession = false
    }
  },
  "credential:invalid-key": {
    applies: () => true,
    apply: ({ random }, _, draft) => {
      draft.withSession = false
      delete draft.headers.authorization
      draft.headers["x-api-key"] = random.pick(["vg_sandbox_" + "0".repeat(32), "vg_live_nope", "x", "k".repeat(300), "vg_sandbox_"])
    }
  },
  "credential:revoked-key": {
    applies: (_, context) => context.fixtures.credentials.revokedApiKeys.length > 0,
    apply: ({ random, fixtures }, _, draft) => {
      draft.withSession = false
      const key = random.pick(fixtures.credentials.revokedApiKeys)
      delete draft.headers["x-api-key"]
      draft.headers.authorization = `Bearer ${key}`
      if (random.chance(0.5)) {
        delete draft.headers.authorization
        draft.headers["x-api-key"] = key
      }
    }
  },
  "credential:both-keys-differ": {
    applies: (_, context) => context.fixtures.credentials.apiKeys.length > 0,
    apply: ({ random, fixtures }, _, draft) => {
      draft.headers["x-api-key"] = random.pick(fixtures.credentials.apiKeys)
      draft.headers.authorization = "Bearer vg_sandbox_other_key_00000000000000"
    }
  },
  "credential:wrong-kind": {
    applies: (operation, context) => operation.security.length > 0 && context.fixtures.credentials.apiKeys.length > 0,
    apply: ({ random, fixtures }, _, draft) => {
      // a key where a session is asked for, a session where a key is
      if (draft.withSession) {
        draft.withSession = false
        draft.headers["x-api-key"] = random.pick(fixtures.credentials.apiKeys)
      } else {
        delete draft.headers["x-api-key"]
        delete draft.headers.authorization
        draft.withSession = true
      }
    }
  },
  "cookie:bad": {
    applies: () => true,
    apply: ({ random }, _, draft) => {
      draft.withSession = false
      draft.headers.cookie = random.pick(["vg_session=garbage", "vg_session=", "vg_session", "vg_session=" + "A".repeat(43), "a=b; vg_session=x; vg_session=y", "=;;=", "vg_session=" + "z".repeat(5_000)])
    }
  },
  "cookie:ended": {
    applies: (_, context) => (context.fixtures.credentials.endedCookies ?? []).length > 0,
    apply: ({ random, fixtures }, _, draft) => {
      draft.withSession = false
      draft.headers.cookie = random.pick(fixtures.credentials.endedCookies!)
    }
  },
  "origin:bad": {
    applies: (operation) => isStateChanging(operation),
    apply: ({ random }, _, draft) => {
      draft.headers.origin = random.pick(["http://evil.example", "null", "http://gateway.test.evil.example", "https://gateway.test", "x"])
    }
  },
  "origin:missing": {
    applies: (operation) => isStateChanging(operation),
    apply: (_, __, draft) => {
      delete draft.headers.origin
    }
  }
}

export const variantNames = Object.keys(MUTATIONS)

const render = (operation: Operation, draft: Draft, variant: string): PlannedRequest => {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = draft.path[name] ?? ""
    // hostile path values that are already percent-escapes go out as written
    return /^%[0-9A-F]{2}/i.test(value) ? value : enc(value)
  })
  const query = [
    ...draft.query.map(([name, value]) => `${enc(name)}=${/^%[0-9A-F]{2}$/i.test(value) ? value : enc(value)}`),
    ...(draft.rawQuery === undefined ? [] : [draft.rawQuery])
  ].join("&")
  return {
    operation,
    variant,
    method: operation.method,
    target: query.length === 0 ? path : `${path}?${query}`,
    headers: draft.headers,
    ...(draft.body === undefined ? {} : { body: draft.body }),
    withSession: draft.withSession
  }
}

/** The next request for `operation`: valid with probability `validShare`, else one applicable hostile variant. */
export const planRequest = (context: PlanContext, operation: Operation, validShare: number): PlannedRequest => {
  const draft = validDraft(context, operation)
  if (context.random.chance(validShare)) return render(operation, draft, "valid")
  const applicable = variantNames.filter((name) => MUTATIONS[name]!.applies(operation, context))
  const variant = context.random.pick(applicable)
  MUTATIONS[variant]!.apply(context, operation, draft)
  return render(operation, draft, variant)
}

import { describe, expect, it } from "vitest"
import { type OpenApiDocument, operationsOf } from "./support/openApiDocument.ts"
import { makeResponseChecker } from "./support/responseCheck.ts"

const envelope = { $ref: "#/components/schemas/Error" }
const json = (schema: unknown) => ({ content: { "application/json": { schema } } })

const document: OpenApiDocument = {
  openapi: "3.1.0",
  paths: {
    "/things/{id}": {
      get: {
        operationId: "things.get",
        responses: {
          "200": { description: "ok", ...json({ $ref: "#/components/schemas/Thing" }) },
          "4XX": { description: "client errors", ...json(envelope) },
          "500": { description: "documented, still a failure", ...json(envelope) },
          "503": { description: "not live", ...json(envelope) },
          "401": { description: "no key", headers: { "WWW-Authenticate": { required: true, schema: { type: "string" } } }, ...json(envelope) }
        }
      }
    },
    "/other": {
      post: { operationId: "other.post", responses: { "204": { description: "no body" }, default: { $ref: "#/components/responses/Failure" } } }
    }
  },
  components: {
    schemas: {
      Thing: { type: "object", required: ["id", "amount"], properties: { id: { type: "string" }, amount: { type: "string", pattern: "^\\d+$" } }, additionalProperties: false },
      Error: { type: "object", required: ["success", "error"], properties: { success: { const: false }, error: { type: "string" } } }
    },
    responses: { Failure: { description: "any failure", ...json(envelope) } }
  }
}

const [get, post] = operationsOf(document)
const check = makeResponseChecker(document)
const answer = (status: number, body: unknown, contentType: string | null = "application/json", retryAfter: string | null = null, headers: Record<string, string> = {}) => ({
  status,
  contentType,
  retryAfter,
  text: typeof body === "string" ? body : JSON.stringify(body),
  header: (name: string) => headers[name] ?? null
})

describe("the contract checker's verdicts", () => {
  it("a documented status with a body of its schema agrees", () => {
    expect(check(get!, answer(200, { id: "a", amount: "12" }))).toBeNull()
    expect(check(get!, answer(404, { success: false, error: "NOT_FOUND" }, "application/json; charset=utf-8"))).toBeNull()
    expect(check(post!, answer(204, ""))).toBeNull()
    expect(check(post!, answer(409, { success: false, error: "CONFLICT" }))).toBeNull()
  })

  it("a body that does not match the schema is reported with ajv's reason", () => {
    expect(check(get!, answer(200, { id: "a", amount: 12 }))).toMatch(/does not match.*amount must be string/)
    expect(check(get!, answer(200, { id: "a", amount: "1", extra: true }))).toMatch(/additional properties/)
    expect(check(get!, answer(400, { success: true, error: "X" }))).toMatch(/does not match/)
    expect(check(get!, answer(200, "not json"))).toMatch(/not JSON/)
  })

  it("a status the operation does not list is reported; 5xx only as a 503 with Retry-After", () => {
    expect(check(get!, answer(302, ""))).toMatch(/status 302 is not documented for things.get/)
    expect(check(get!, answer(500, { success: false, error: "INTERNAL" }))).toBe("server error 500")
    expect(check(get!, answer(502, { success: false, error: "X" }))).toBe("server error 502")
    expect(check(get!, answer(503, { success: false, error: "NOT_LIVE" }))).toMatch(/503 without Retry-After/)
    expect(check(get!, answer(503, { success: false, error: "NOT_LIVE" }, "application/json", "5"))).toBeNull()
    expect(check(post!, answer(503, { success: false, error: "NOT_LIVE" }, "application/json", "5"))).toBeNull()
  })

  it("a header the document requires on the answer must be there", () => {
    const refused = { success: false, error: "UNAUTHORIZED" }
    expect(check(get!, answer(401, refused))).toBe("401 lacks the header WWW-Authenticate the document requires")
    expect(check(get!, answer(401, refused, "application/json", null, { "www-authenticate": "Bearer realm=\"x\"" }))).toBeNull()
  })

  it("a content type the status does not list is reported; an unlabeled body is sniffed", () => {
    expect(check(get!, answer(404, "<h1>Not Found</h1>", "text/html"))).toMatch(/content type "text\/html" is not documented/)
    expect(check(get!, answer(431, "<h1>Request Header Fields Too Large</h1>", null))).toMatch(/content type "null" is not documented/)
    expect(check(get!, answer(404, { success: false, error: "NOT_FOUND" }, null))).toBeNull()
  })
})

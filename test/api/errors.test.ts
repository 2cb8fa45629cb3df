import { HttpApiSchema } from "@effect/platform"
import { Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { allErrorResponses, BadRequest, BadRequestResponse, RateLimited, RateLimitedResponse } from "../../src/api/errors.ts"
import { NotReadyResponse } from "../../src/api/system/statusBody.ts"
import { ErrorEnvelope } from "../../src/api/schemas.ts"

/**
 * Codes are append-only: this table is the published set. Adding a code means adding a row; a test
 * failing here because a row vanished or changed status means a client-visible break.
 */
const PUBLISHED: Record<string, number> = {
  BAD_REQUEST: 400,
  INVALID_ADDRESS: 400,
  INVALID_CURSOR: 400,
  INVALID_QUERY: 400,
  MALFORMED_JSON: 400,
  INVALID_PATH: 400,
  INVALID_BODY: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  WRONG_ENVIRONMENT: 403,
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  VAULT_NOT_FOUND: 404,
  NO_POSITION: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  UPGRADE_REQUIRED: 426,
  INTERNAL: 500,
  PROJECTION_UNAVAILABLE: 503
}

const codesOf = (schema: Schema.Schema.Any): ReadonlyArray<string> => {
  const envelope = SchemaAST.encodedAST(schema.ast) as SchemaAST.TypeLiteral
  const error = envelope.propertySignatures.find((property) => property.name === "error")!.type
  const literals = SchemaAST.isUnion(error) ? error.types : [error]
  return literals.map((literal) => String((literal as SchemaAST.Literal).literal))
}

describe("API error codes", () => {
  it("every published code still exists with its status, and every code is published", () => {
    const seen = new Map<string, number>()
    for (const schema of [...allErrorResponses, NotReadyResponse]) {
      const status = HttpApiSchema.getStatusError(schema)
      for (const code of codesOf(schema)) {
        expect(seen.get(code) ?? status, `${code} has one status`).toBe(status)
        seen.set(code, status)
      }
    }
    expect(Object.fromEntries(seen)).toEqual(PUBLISHED)
  })

  it("errors go on the wire as the envelope and come back as the class", () => {
    const error = new BadRequest({ code: "INVALID_ADDRESS", message: "expected a base58 address" })
    const wire = Schema.encodeSync(BadRequestResponse)(error)
    expect(wire).toEqual({ success: false, error: "INVALID_ADDRESS", message: "expected a base58 address" })
    expect(Schema.is(ErrorEnvelope)(wire)).toBe(true)
    const back = Schema.decodeUnknownSync(BadRequestResponse)(wire)
    expect(back).toBeInstanceOf(BadRequest)
    expect(back.code).toBe("INVALID_ADDRESS")

    const limited = new RateLimited({ code: "RATE_LIMITED", message: "m", limit: 5, remaining: 0, reset: 9, retryAfterSeconds: 3 })
    expect(Schema.encodeSync(RateLimitedResponse)(limited)).toEqual({
      success: false,
      error: "RATE_LIMITED",
      message: "m",
      limit: 5,
      remaining: 0,
      reset: 9,
      retryAfterSeconds: 3
    })
  })

  it("the envelope refuses bodies of another error", () => {
    expect(() => Schema.decodeUnknownSync(BadRequestResponse)({ success: false, error: "NOT_FOUND", message: "m" })).toThrow()
    expect(() => Schema.decodeUnknownSync(BadRequestResponse)({ success: true, error: "BAD_REQUEST", message: "m" })).toThrow()
  })
})

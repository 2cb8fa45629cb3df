import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "../../src/api/Api.ts"
import { openApiDocument } from "../../src/api/docs.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { liveStatus } from "../../src/bench/support/projectionTest.ts"
import { fetchJson } from "../support/httpFetch.ts"

// What the document says about every operation and query parameter (issue #19, "the document is
// complete"), and that the server's answers to bad parameters did not change with it.
const spec = openApiDocument(Api) as any
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, any>).map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation }))
)
const queryParameters = operations.flatMap(({ label, operation }) =>
  (operation.parameters ?? []).filter((parameter: any) => parameter.in === "query").map((parameter: any) => ({ label, parameter }))
)
const named = (name: string) => queryParameters.filter(({ parameter }) => parameter.name === name)

describe("the OpenAPI document", () => {
  it("names its server", () => {
    expect(spec.servers).toEqual([{ url: "/", description: expect.any(String) }])
  })

  it("gives every operation a summary and its error statuses", () => {
    for (const { label, operation } of operations) {
      expect(typeof operation.summary, label).toBe("string")
      expect(operation.summary.length, label).toBeGreaterThan(10)
      expect(Object.keys(operation.responses), label).toEqual(expect.arrayContaining(["200", "400", "500"]))
    }
  })

  it("documents limit as an integer 1-100, dates as YYYY-MM-DD, cursors and booleans as their text", () => {
    expect(named("limit").length).toBeGreaterThanOrEqual(6)
    for (const { label, parameter } of named("limit")) {
      expect(parameter.schema, label).toMatchObject({ type: "integer", minimum: 1, maximum: 100 })
    }
    const dates = [...named("startDate"), ...named("endDate")]
    expect(dates.length).toBeGreaterThanOrEqual(6)
    for (const { label, parameter } of dates) {
      expect(parameter.schema, label).toMatchObject({ type: "string", format: "date", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" })
    }
    for (const { label, parameter } of named("cursor")) expect(parameter.schema.type, label).toBe("string")
    for (const { label, parameter } of named("includePartial")) {
      expect(parameter.schema, label).toMatchObject({ type: "string", enum: ["true", "false"] })
    }
    for (const { label, parameter } of [...named("amountRaw"), ...named("sharesRaw")]) {
      expect(parameter.schema, label).toMatchObject({ type: "string", pattern: "^[1-9][0-9]*$" })
    }
    // no parameter is left as "a string to be decoded into a number"
    const parameters = operations.flatMap(({ label, operation }) =>
      (operation.parameters ?? []).map((parameter: any) => `${label} ${parameter.name}: ${JSON.stringify(parameter.schema)}`)
    )
    expect(parameters.filter((line) => line.includes("decoded into"))).toEqual([])
  })
})

describe("bad query parameters keep their answers", () => {
  layer(gatewayForTest({ initial: liveStatus(100) }), { excludeTestServices: true })((it) => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["limit=0", "INVALID_QUERY"],
      ["limit=101", "INVALID_QUERY"],
      ["limit=1.5", "INVALID_QUERY"],
      ["limit=ten", "INVALID_QUERY"],
      ["startDate=2026-02-30", "INVALID_QUERY"],
      ["endDate=26-01-01", "INVALID_QUERY"],
      ["includePartial=yes", "INVALID_QUERY"]
    ]
    for (const [query, code] of cases) {
      it.effect(`${query}: 400 ${code}`, () =>
        Effect.gen(function*() {
          const answer = yield* fetchJson(`${yield* serverUrl}/v2/referrer/11111111111111111111111111111111/history?${query}`, {
            headers: { "x-api-key": TEST_PARTNER_KEY }
          })
          expect(answer.status).toBe(400)
          expect(answer.body).toMatchObject({ success: false, error: code, message: expect.any(String) })
        }))
    }
    it.effect("a preview amount is still checked by the build core (its own code)", () =>
      Effect.gen(function*() {
        const answer = yield* fetchJson(`${yield* serverUrl}/v2/vault/11111111111111111111111111111111/simulate-deposit?amountRaw=007`, {
          headers: { "x-api-key": TEST_PARTNER_KEY }
        })
        expect(answer.status).toBe(400)
        expect(answer.body).toMatchObject({ success: false, error: "INVALID_AMOUNT_RAW" })
      }))
  })
})

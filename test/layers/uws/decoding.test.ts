import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { NotFound } from "../../../src/api/errors.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { rawGet, rawRequest } from "../../support/httpRaw.ts"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { FixtureApi, fixtureServer, UNKNOWN_ITEM } from "./fixtureApi.ts"

const ADDRESS = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"

const client = Effect.flatMap(HttpListener, ({ url }) => HttpApiClient.make(FixtureApi, { baseUrl: url })).pipe(
  Effect.provide(FetchHttpClient.layer)
)
const get = (path: string, init?: RequestInit) => Effect.flatMap(HttpListener, ({ url }) => fetchJson(`${url}${path}`, init))

const expectBadRequest = (response: { status: number; body: any; headers: Headers }, code: string) => {
  expect(response.status).toBe(400)
  expect(response.body).toMatchObject({ success: false, error: code })
  expect(typeof response.body.message).toBe("string")
  expect(response.headers.get("x-request-id")).toBeTruthy()
}

describe("request decoding from the contract's schemas", () => {
  layer(fixtureServer(), { excludeTestServices: true })((it) => {
    it.effect("path parameters: a valid address reaches the handler; invalid base58 is 400 INVALID_ADDRESS", () =>
      Effect.gen(function*() {
        const api = yield* client
        expect(yield* api.items.get({ path: { address: ADDRESS as never } })).toEqual({ address: ADDRESS, name: "item" })
        const missing = yield* Effect.either(api.items.get({ path: { address: UNKNOWN_ITEM as never } }))
        expect(Either.isLeft(missing) && missing.left instanceof NotFound).toBe(true)

        for (const bad of ["0OIl", "not-an-address", ADDRESS.slice(0, 20), `${ADDRESS}x`, "%E2%82%AC"]) {
          const response = yield* get(`/items/${bad}`)
          expectBadRequest(response, "INVALID_ADDRESS")
          expect(response.body.message).toContain("address")
        }
      }))

    it.effect("decoded path parameters are remembered per raw text: repeats and interleavings answer as the first time", () =>
      Effect.gen(function*() {
        const other = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"
        for (let round = 0; round < 3; round++) {
          expect((yield* get(`/items/${ADDRESS}`)).body).toEqual({ address: ADDRESS, name: "item" })
          expect((yield* get(`/items/${other}`)).body).toEqual({ address: other, name: "item" })
          expectBadRequest(yield* get("/items/0OIl"), "INVALID_ADDRESS")
          // The same text percent-encoded is another raw text, decoded to the same address.
          expect((yield* get(`/items/${encodeURIComponent(ADDRESS).replace("B", "%42")}`)).body).toEqual({ address: ADDRESS, name: "item" })
        }
      }))

    it.effect("bad percent-encoding in the path is 400 INVALID_PATH", () =>
      Effect.gen(function*() {
        const { port } = yield* HttpListener
        const response = yield* Effect.promise(() => rawGet(port, "/items/%E0%A4%A"))
        expect(response?.status).toBe(400)
        expect(JSON.parse(response!.body)).toMatchObject({ success: false, error: "INVALID_PATH" })
      }))

    it.effect("query: typed, arrays from repeated keys, wrong types, repeats, unknown keys, bad encoding", () =>
      Effect.gen(function*() {
        const api = yield* client
        expect(yield* api.items.list({ urlParams: { limit: 5, tag: ["a", "b"] } })).toEqual({
          limit: 5,
          tag: ["a", "b"],
          cursor: null
        })
        expect((yield* get("/items?tag=only")).body).toEqual({ limit: null, tag: ["only"], cursor: null })
        expect((yield* get("/items?tag=a+b&tag=%C3%A9")).body.tag).toEqual(["a b", "é"])

        expectBadRequest(yield* get("/items?limit=abc"), "INVALID_QUERY")
        expectBadRequest(yield* get("/items?limit=0"), "INVALID_QUERY")
        expectBadRequest(yield* get("/items?limit=1.5"), "INVALID_QUERY")
        const repeated = yield* get("/items?limit=1&limit=2")
        expectBadRequest(repeated, "INVALID_QUERY")
        expect(repeated.body.message).toContain("more than once")
        expectBadRequest(yield* get("/items?limt=5"), "INVALID_QUERY")
        expectBadRequest(yield* get("/items?cursor=zzz"), "INVALID_CURSOR")
        expectBadRequest(yield* get(`/items?${Array.from({ length: 65 }, (_, i) => `tag=${i}`).join("&")}`), "INVALID_QUERY")

        const { port } = yield* HttpListener
        const badEncoding = yield* Effect.promise(() => rawGet(port, "/items?tag=%zz"))
        expect(badEncoding?.status).toBe(400)
        expect(JSON.parse(badEncoding!.body)).toMatchObject({ error: "INVALID_QUERY" })
        const protoKey = yield* Effect.promise(() => rawGet(port, "/lenient?__proto__=1&constructor=2&x=ok"))
        expect(JSON.parse(protoKey!.body)).toEqual({ x: "ok" })
      }))

    it.effect("a schema without the strict annotation ignores unknown query keys", () =>
      Effect.gen(function*() {
        expect((yield* get("/lenient?x=1&cachebuster=2")).body).toEqual({ x: "1" })
        expectBadRequest(yield* get("/lenient?x=1&x=2"), "INVALID_QUERY")
      }))

    it.effect("JSON bodies: created, malformed, empty, wrong shape", () =>
      Effect.gen(function*() {
        const api = yield* client
        expect(yield* api.items.create({ payload: { name: "n", amountRaw: "100" } })).toEqual({ created: "n" })
        const post = (body: string) => get("/items", { method: "POST", body, headers: { "content-type": "application/json" } })
        expect((yield* post(`{"name":"n","amountRaw":"1"}`)).status).toBe(201)
        expectBadRequest(yield* post(`{"name":`), "MALFORMED_JSON")
        expectBadRequest(yield* post(""), "MALFORMED_JSON")
        expectBadRequest(yield* post(`{"name":"n","amountRaw":1}`), "INVALID_BODY")
        expectBadRequest(yield* post(`[1,2]`), "INVALID_BODY")
      }))

    it.effect("a body over the endpoint's MaxBodyBytes is 413 and the connection is closed", () =>
      Effect.gen(function*() {
        const { port } = yield* HttpListener
        const body = JSON.stringify({ name: "n", amountRaw: "1".repeat(2000) })
        const declared = yield* Effect.promise(() =>
          rawRequest(port, `POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`, { waitForClose: true })
        )
        expect(declared?.status).toBe(413)
        expect(JSON.parse(declared!.body)).toMatchObject({ success: false, error: "PAYLOAD_TOO_LARGE", limitBytes: 1024 })
        expect(declared?.closed).toBe(true)

        const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`
        const chunked = yield* Effect.promise(() =>
          rawRequest(port, `POST /items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunk(body.slice(0, 1000))}${chunk(body.slice(1000))}0\r\n\r\n`)
        )
        expect(chunked?.status).toBe(413)
        const fine = yield* get("/items", { method: "POST", body: JSON.stringify({ name: "ok", amountRaw: "1" }) })
        expect(fine.status).toBe(201)
      }))
  })
})

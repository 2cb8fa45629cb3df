import net from "node:net"
import zlib from "node:zlib"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { afterEach, vi } from "vitest"
import { ApiRoutesLive } from "../../../layers/uws/ApiRoutes.ts"
import { codingFor, COMPRESS_SYNC_MAX_BYTES, MIN_COMPRESSED_BYTES } from "../../../layers/uws/contentEncoding.ts"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { BadRequestResponse, HeadersTooLargeResponse, InternalErrorResponse, UriTooLongResponse } from "../../../src/api/errors.ts"
import { implementGroup } from "../../../src/api/handlers.ts"
import { PreEncoded } from "../../../src/api/preEncoded.ts"
import { listenForTest } from "../../../src/bench/support/httpTestServer.ts"
import { type BytesResponse, getBytes } from "../../support/httpBytes.ts"

const Rows = Schema.Struct({ rows: Schema.Array(Schema.Struct({ id: Schema.Number, name: Schema.String, amount: Schema.String })) })

/** JSON that compresses like the API's: repeated keys, varied values. */
const rows = (count: number) => ({
  rows: Array.from({ length: count }, (_, id) => ({ id, name: `vault ${id % 37} — β`, amount: String(BigInt(id) * 1_234_567_891n) }))
})

const SMALL = PreEncoded.encoder(Rows)(rows(3))
const REUSED = PreEncoded.encoder(Rows)(rows(300))
const REUSED_LARGE = PreEncoded.encoder(Rows)(rows(5_000))
/** What `/fresh` answers: a test puts a new body here to watch it being compressed. */
let fresh = PreEncoded.encoder(Rows)(rows(5_000))

const CompressionApi = HttpApi.make("compression")
  .add(
    HttpApiGroup.make("bodies")
      .add(HttpApiEndpoint.get("small", "/small").addSuccess(Rows))
      .add(HttpApiEndpoint.get("reused", "/reused").addSuccess(Rows))
      .add(HttpApiEndpoint.get("reusedLarge", "/reused-large").addSuccess(Rows))
      .add(HttpApiEndpoint.get("dynamic", "/dynamic").addSuccess(Rows))
      .add(HttpApiEndpoint.get("dynamicLarge", "/dynamic-large").addSuccess(Rows))
      .add(HttpApiEndpoint.get("fresh", "/fresh").addSuccess(Rows))
  )
  .addError(BadRequestResponse)
  .addError(UriTooLongResponse)
  .addError(HeadersTooLargeResponse)
  .addError(InternalErrorResponse)

const BodiesLive = implementGroup(
  CompressionApi,
  "bodies",
  Effect.succeed({
    small: () => Effect.succeed(SMALL),
    reused: () => Effect.succeed(REUSED),
    reusedLarge: () => Effect.succeed(REUSED_LARGE),
    // encoded by the transport on every request
    dynamic: () => Effect.succeed(rows(300)),
    dynamicLarge: () => Effect.sync(() => rows(5_000)),
    fresh: () => Effect.sync(() => fresh)
  })
)

const server = listenForTest(ApiRoutesLive(CompressionApi).pipe(Layer.provide(BodiesLive)))

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(HttpListener, ({ url }) => Effect.promise(() => getBytes(`${url}${path}`, headers)))

const decode = (response: BytesResponse): Buffer => {
  switch (response.headers["content-encoding"]) {
    case undefined:
      return response.body
    case "br":
      return zlib.brotliDecompressSync(response.body)
    case "gzip":
      return zlib.gunzipSync(response.body)
    default:
      throw new Error(`unexpected content-encoding ${response.headers["content-encoding"]}`)
  }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe("content coding negotiation (Accept-Encoding, RFC 9110 §12.5.3)", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["gzip", "gzip"],
    ["br", "br"],
    ["GZIP", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["gzip;q=0.5, br;q=0.8", "br"],
    ["br;q=0", undefined],
    ["gzip;q=0, br;q=0", undefined],
    ["br;q=0, gzip;q=0, *", undefined],
    ["*", "br"],
    ["br;q=0, *", "gzip"],
    ["*;q=0.1, gzip", "gzip"],
    ["identity", undefined],
    ["identity;q=0, gzip;q=0.2", "gzip"],
    ["gzip;q=0.2, identity", undefined],
    ["deflate", undefined],
    ["x-gzip, compress", undefined],
    ["gzip;q=nonsense, br;q=0.1", "br"]
  ] as const)("Accept-Encoding %j answers %s", (header, expected) => {
    expect(codingFor(header)).toBe(expected)
  })
})

describe("compressed answers over HTTP", () => {
  layer(server)((it) => {
    it.effect("each coding decodes to exactly the bytes sent uncompressed, with Content-Encoding and Vary", () =>
      Effect.gen(function*() {
        for (const path of ["/reused", "/reused-large", "/dynamic", "/dynamic-large"]) {
          const plain = yield* get(path)
          expect(plain.status).toBe(200)
          expect(plain.headers["content-encoding"]).toBeUndefined()
          expect(plain.headers.vary).toBe("accept-encoding")
          expect(plain.body.length).toBeGreaterThan(MIN_COMPRESSED_BYTES)
          expect(JSON.parse(plain.body.toString("utf8")).rows.length).toBeGreaterThan(100)
          for (const coding of ["br", "gzip"] as const) {
            const coded = yield* get(path, { "accept-encoding": coding })
            expect(coded.status).toBe(200)
            expect(coded.headers["content-encoding"]).toBe(coding)
            expect(coded.headers.vary).toBe("accept-encoding")
            expect(coded.headers["content-type"]).toBe(plain.headers["content-type"])
            expect(Number(coded.headers["content-length"])).toBe(coded.body.length)
            expect(coded.body.length).toBeLessThan(plain.body.length / 4)
            expect(decode(coded).equals(plain.body)).toBe(true)
          }
        }
        // the large ones take the thread-pool path
        expect((yield* get("/dynamic-large")).body.length).toBeGreaterThan(COMPRESS_SYNC_MAX_BYTES)
        expect(REUSED_LARGE.body.length).toBeGreaterThan(COMPRESS_SYNC_MAX_BYTES)
      }))

    it.effect("q=0 is respected: a refused coding is never sent, and refusing all gives the body as it is", () =>
      Effect.gen(function*() {
        const noBr = yield* get("/reused", { "accept-encoding": "br;q=0, gzip" })
        expect(noBr.headers["content-encoding"]).toBe("gzip")
        const none = yield* get("/reused", { "accept-encoding": "gzip;q=0, br;q=0" })
        expect(none.headers["content-encoding"]).toBeUndefined()
        expect(none.headers.vary).toBe("accept-encoding")
        expect(none.body.equals((yield* get("/reused")).body)).toBe(true)
        const preferGzip = yield* get("/dynamic", { "accept-encoding": "br;q=0.3, gzip;q=0.9" })
        expect(preferGzip.headers["content-encoding"]).toBe("gzip")
      }))

    it.effect("a body under the threshold goes out uncompressed, still with Vary", () =>
      Effect.gen(function*() {
        const small = yield* get("/small", { "accept-encoding": "gzip, br" })
        expect(small.body.length).toBeLessThan(MIN_COMPRESSED_BYTES)
        expect(small.headers["content-encoding"]).toBeUndefined()
        expect(small.headers.vary).toBe("accept-encoding")
        expect(JSON.parse(small.body.toString("utf8"))).toEqual(JSON.parse(SMALL.body))
      }))

    it.effect("a reused body is compressed once per coding, however many requests ask at once", () =>
      Effect.gen(function*() {
        fresh = PreEncoded.encoder(Rows)(rows(5_001))
        const brotli = vi.spyOn(zlib, "brotliCompress")
        const gzip = vi.spyOn(zlib, "gzip")
        const { url } = yield* HttpListener
        const serve = (coding: string) => Effect.promise(() => getBytes(`${url}/fresh`, { "accept-encoding": coding }))
        const answers = yield* Effect.all(Array.from({ length: 8 }, () => serve("br")), { concurrency: "unbounded" })
        expect(brotli).toHaveBeenCalledTimes(1)
        const again = yield* serve("br")
        expect(brotli).toHaveBeenCalledTimes(1)
        for (const answer of [...answers, again]) expect(answer.body.equals(answers[0]!.body)).toBe(true)
        expect(JSON.parse(decode(again).toString("utf8")).rows.length).toBe(5_001)
        // the copy is kept with the body, as bytes once made
        const kept = fresh.coded("br", () => {
          throw new Error("compressed twice")
        })
        expect(kept).toBeInstanceOf(Uint8Array)
        expect(Buffer.from(kept as Uint8Array).equals(again.body)).toBe(true)
        // each coding once
        yield* serve("gzip")
        yield* serve("gzip")
        expect(gzip).toHaveBeenCalledTimes(1)
        expect(brotli).toHaveBeenCalledTimes(1)
      }))

    it.effect("a client that leaves while its body is being compressed does not disturb the server", () =>
      Effect.gen(function*() {
        const { port } = yield* HttpListener
        yield* Effect.promise(() =>
          new Promise<void>((resolve) => {
            const socket = net.connect(port, "127.0.0.1")
            socket.write("GET /dynamic-large HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n", () => {
              socket.destroy()
              resolve()
            })
          })
        )
        // it.effect's clock is a test clock: wait in real time
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
        const after = yield* get("/dynamic-large", { "accept-encoding": "gzip" })
        expect(after.status).toBe(200)
        expect(JSON.parse(decode(after).toString("utf8")).rows.length).toBe(5_000)
      }))
  })
})

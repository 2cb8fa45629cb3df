import net from "node:net"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Ref } from "effect"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { BIG_FILLER_BYTES, fixtureServer, HangInterruptions } from "./fixtureApi.ts"

const get = (path: string, init?: RequestInit) => Effect.flatMap(HttpListener, ({ url }) => fetchJson(`${url}${path}`, init))
/** Sends `paths` as pipelined requests on one connection (the last one closes it) and returns the raw answer. */
const pipelined = (port: number, paths: ReadonlyArray<string>) =>
  Effect.promise(() =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1")
      const chunks: Array<Buffer> = []
      socket.on("data", (chunk) => chunks.push(chunk))
      socket.on("error", reject)
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")))
      socket.write(
        paths.map((path, i) => `GET ${path} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? "Connection: close\r\n" : ""}\r\n`).join("")
      )
    })
  )

const wait = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

/** Reads a whole response slowly: pauses right after the request so the server meets backpressure. */
const slowRead = (port: number, path: string, pauseMs: number) =>
  Effect.promise(() =>
    new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1")
      const chunks: Array<Buffer> = []
      socket.on("data", (chunk) => chunks.push(chunk))
      socket.on("error", reject)
      socket.on("close", () => resolve(Buffer.concat(chunks)))
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
      socket.pause()
      setTimeout(() => socket.resume(), pauseMs)
    })
  )

describe("asynchronous handlers, aborts and large bodies", () => {
  layer(fixtureServer(), { excludeTestServices: true })((it) => {
    it.effect("an asynchronous handler answers; many at once all answer", () =>
      Effect.gen(function*() {
        expect((yield* get("/slow")).body).toEqual({ waited: true })
        const answers = yield* Effect.all(Array.from({ length: 200 }, () => get("/slow")), { concurrency: "unbounded" })
        expect(answers.every((answer) => answer.status === 200 && answer.body.waited === true)).toBe(true)
        expect(new Set(answers.map((answer) => answer.headers.get("x-request-id"))).size).toBe(200)
      }))

    it.effect("pipelined requests to synchronous handlers are all answered, in order", () =>
      Effect.gen(function*() {
        const { port } = yield* HttpListener
        const raw = yield* pipelined(port, ["/items", "/nowhere", "/items"]).pipe(Effect.timeout("5 seconds"))
        expect(raw.match(/HTTP\/1\.1 \d{3}/g)).toEqual(["HTTP/1.1 200", "HTTP/1.1 404", "HTTP/1.1 200"])
      }))

    // uWS serves one request at a time per connection: a request that arrives while an earlier
    // answer is still being computed makes it close the connection (README, "HTTP/1.1 pipelining").
    // The client sees the connection end and can retry; it never waits forever.
    it.effect("a request pipelined behind an asynchronous answer closes the connection instead of hanging", () =>
      Effect.gen(function*() {
        const { port } = yield* HttpListener
        const raw = yield* pipelined(port, ["/slow", "/items"]).pipe(Effect.timeout("5 seconds"))
        expect(raw.match(/HTTP\/1\.1 \d{3}/g) ?? []).toEqual([])
        expect((yield* get("/slow")).body).toEqual({ waited: true })
      }))

    it.effect("a client that goes away interrupts its handler, and the server keeps answering", () =>
      Effect.gen(function*() {
        const interruptions = yield* HangInterruptions
        const { url } = yield* HttpListener
        const before = yield* Ref.get(interruptions)
        const controllers = Array.from({ length: 5 }, () => new AbortController())
        const pending = controllers.map((controller) => fetch(`${url}/hang`, { signal: controller.signal }).catch(() => "aborted"))
        yield* wait(100)
        for (const controller of controllers) controller.abort()
        expect(yield* Effect.promise(() => Promise.all(pending))).toEqual(Array(5).fill("aborted"))
        let after = before
        for (let i = 0; i < 50 && after < before + 5; i++) {
          yield* wait(20)
          after = yield* Ref.get(interruptions)
        }
        expect(after - before).toBe(5)
        expect((yield* get("/items")).status).toBe(200)
      }))

    it.effect("a multi-megabyte body reaches a slow reader whole, and others are served meanwhile", () =>
      Effect.gen(function*() {
        const { port } = yield* HttpListener
        const slow = yield* Effect.fork(slowRead(port, "/big", 300))
        yield* wait(50)
        expect((yield* get("/items")).status).toBe(200)
        const raw = yield* slow.await.pipe(Effect.flatten)
        const body = raw.subarray(raw.indexOf("\r\n\r\n") + 4).toString("utf8")
        expect(JSON.parse(body).filler.length).toBe(BIG_FILLER_BYTES)
      }))

    it.effect("a reader that disconnects in the middle of a large body does not disturb the server", () =>
      Effect.gen(function*() {
        const { port } = yield* HttpListener
        yield* Effect.promise(() =>
          new Promise<void>((resolve) => {
            const socket = net.connect(port, "127.0.0.1")
            socket.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            socket.once("data", () => {
              socket.destroy()
              resolve()
            })
          })
        )
        yield* wait(50)
        const whole = yield* get("/big")
        expect(whole.body.filler.length).toBe(BIG_FILLER_BYTES)
      }))
  })
})

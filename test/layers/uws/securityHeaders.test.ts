import { createHash } from "node:crypto"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { gatewayForTest, serverUrl } from "../../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus } from "../../../src/bench/support/projectionTest.ts"

const get = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    return { status: response.status, headers: response.headers, text: await response.text() }
  })

/** The CSP directives by name. */
const directives = (policy: string | null): Map<string, ReadonlyArray<string>> =>
  new Map((policy ?? "").split(";").map((part) => part.trim().split(/\s+/)).filter((words) => words[0] !== "").map(([name, ...values]) => [name!, values]))

describe("security headers over real HTTP", () => {
  layer(gatewayForTest({ initial: liveStatus(100) }), { excludeTestServices: true })((it) => {
    it.effect("every answer carries X-Content-Type-Options: nosniff (JSON, error, 404, 405, redirect, docs)", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const answers = [
          yield* get(`${url}/health`),
          yield* get(`${url}/status`),
          yield* get(`${url}/v2/vaults`),
          yield* get(`${url}/v2/vaults`, { headers: { "x-api-key": TEST_PARTNER_KEY } }),
          yield* get(`${url}/no/such/route`),
          yield* get(`${url}/health`, { method: "DELETE" }),
          yield* get(`${url}/`, { redirect: "manual" }),
          yield* get(`${url}/openapi.json`),
          yield* get(`${url}/docs`, { headers: { "accept-encoding": "gzip" } })
        ]
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 200, 404, 405, 308, 200, 200])
        for (const answer of answers) expect(answer.headers.get("x-content-type-options")).toBe("nosniff")
        // headers written once per answer: no duplicate joined into one value
        expect(answers[0]!.headers.get("x-request-id")).not.toContain(",")
      }))

    it.effect("/docs answers a CSP that forbids framing and allows exactly its own inline scripts, and a Referrer-Policy", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const docs = yield* get(`${url}/docs`)
        expect(docs.headers.get("content-type")).toBe("text/html; charset=utf-8")
        expect(docs.headers.get("referrer-policy")).toBe("no-referrer")
        expect(docs.headers.get("x-frame-options")).toBe("DENY")
        const csp = directives(docs.headers.get("content-security-policy"))
        expect(csp.get("frame-ancestors")).toEqual(["'none'"])
        expect(csp.get("default-src")).toEqual(["'none'"])
        const inline = [...docs.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) =>
          `'sha256-${createHash("sha256").update(match[1]!).digest("base64")}'`
        )
        expect(inline.length).toBeGreaterThan(0)
        expect([...(csp.get("script-src") ?? [])].sort()).toEqual([...inline, "'wasm-unsafe-eval'"].sort())
        expect(csp.get("script-src")).not.toContain("'unsafe-inline'")
        // JSON answers are not documents: no page policy on them
        const health = yield* get(`${url}/health`)
        expect(health.headers.get("content-security-policy")).toBeNull()
      }))

    it.effect("the web pages: a strict policy (own scripts and styles only, nothing inline), no inline code, immutable hashed assets", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        for (const path of ["/dashboard", "/ops"]) {
          const page = yield* get(`${url}${path}`)
          expect(page.status).toBe(200)
          expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
          expect(page.headers.get("cache-control")).toBe("no-cache")
          expect(page.headers.get("x-content-type-options")).toBe("nosniff")
          expect(page.headers.get("referrer-policy")).toBe("no-referrer")
          const csp = directives(page.headers.get("content-security-policy"))
          expect(csp.get("frame-ancestors")).toEqual(["'none'"])
          expect(csp.get("script-src")).toEqual(["'self'"])
          expect(csp.get("style-src")).toEqual(["'self'"])
          expect(csp.get("default-src")).toEqual(["'none'"])
          // nothing inline for the policy to refuse
          expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/)
          expect(page.text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i)
          const assets = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!)
          expect(assets.map((asset) => asset.replace(/-[A-Z0-9]{8}\./, "-HASH."))).toEqual([`/assets${path}-HASH.css`, `/assets${path}-HASH.js`])
          for (const asset of assets) {
            const file = yield* get(`${url}${asset}`, { headers: { "accept-encoding": "br" } })
            expect(file.status).toBe(200)
            expect(file.headers.get("content-type")).toBe(asset.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8")
            expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
            expect(file.headers.get("x-content-type-options")).toBe("nosniff")
            expect(file.text.length).toBeGreaterThan(1000)
          }
        }
        const missing = yield* get(`${url}/assets/dashboard-NOTAHASH.js`)
        expect(missing.status).toBe(404)
        expect(missing.headers.get("x-content-type-options")).toBe("nosniff")
        expect(JSON.parse(missing.text)).toMatchObject({ success: false, error: "NOT_FOUND" })
        expect((yield* get(`${url}/dashboard`, { method: "POST" })).status).toBe(405)
      }))
  })
})

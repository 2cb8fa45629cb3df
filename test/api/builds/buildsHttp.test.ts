import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { u64Max } from "../../support/buildFixtures.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { TEST_PARTNER_KEY } from "../../../src/bench/support/partnerKeyStandIn.ts"
import { gatewayForTest, serverUrl } from "../../../src/bench/support/httpTestServer.ts"
import { liveStatus, ProjectionControl, startingStatus } from "../../../src/bench/support/projectionTest.ts"
import { findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import { alice, bob, makeWorld, program, vault, wallet } from "../../../src/bench/support/buildWorld.ts"

// The builders over real HTTP against a projection the test holds (no chain: the stand-in
// blockhash, no balance check). Chain end to end is in buildsSandbox.test.ts.
const world = makeWorld({ positions: [{ owner: alice, fields: { shares: 50_000_000n, netDeposits: 50_000_000n } }] })
const OFF_CURVE = findUserBundlePda(program, alice, vault)[0] // a PDA: not an ed25519 point

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetchJson(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

const deposit = `/v2/vault/${vault}/tx/deposit`
const withdraw = `/v2/vault/${vault}/tx/withdraw`

describe("transaction builders over HTTP", () => {
  layer(gatewayForTest({ initial: liveStatus(100), state: world.state, buildsPerMinute: 1_000_000 }), { excludeTestServices: true })((it) => {
    it.effect("an accepted deposit: 200, the transaction, CORS and rate-limit headers", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const answer = yield* post(url, deposit, { userAddress: bob, amountRaw: "5000000" }, { origin: "https://dapp.example" })
        expect(answer.status).toBe(200)
        expect(answer.body.success).toBe(true)
        expect(answer.body.data.validation).toEqual({ accepted: true, rejectionReasons: [] })
        expect(answer.body.data.signers).toEqual([bob])
        expect(typeof answer.body.data.transactionBase64).toBe("string")
        expect(answer.body.data.instructions.length).toBeGreaterThan(1)
        expect(answer.headers.get("access-control-allow-origin")).toBe("*")
        expect(answer.headers.get("x-ratelimit-limit")).toBe("1000000")
        expect(answer.headers.get("x-ratelimit-remaining")).not.toBeNull()
      }))

    it.effect("an accepted withdrawal (withdrawAll and partial)", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const all = yield* post(url, withdraw, { userAddress: alice, withdrawAll: true })
        expect(all.status).toBe(200)
        expect(all.body.data.validation.accepted).toBe(true)
        expect(all.body.data.sharesAmount).toBe("50000000")
        const part = yield* post(url, withdraw, { userAddress: alice, amountRaw: "1000000" })
        expect(part.body.data.validation.accepted).toBe(true)
        expect(BigInt(part.body.data.sharesAmount)).toBeLessThan(50_000_000n)
      }))

    const malformed: ReadonlyArray<readonly [string, string, unknown, string]> = [
      ["not JSON", deposit, "{nope", "MALFORMED_JSON"],
      ["not an object", deposit, "[1,2]", "INVALID_BODY"],
      ["an unknown field", deposit, { userAddress: bob, amountRaw: "1", extra: 1 }, "UNKNOWN_FIELD"],
      ["a missing field", deposit, { userAddress: bob }, "MISSING_FIELD"],
      ["a non-canonical amount", deposit, { userAddress: bob, amountRaw: "0100" }, "INVALID_AMOUNT_RAW"],
      ["a zero amount", deposit, { userAddress: bob, amountRaw: "0" }, "INVALID_AMOUNT_RAW"],
      ["an amount over u64", deposit, { userAddress: bob, amountRaw: (u64Max + 1n).toString() }, "INVALID_AMOUNT_RAW"],
      ["a number amount", deposit, { userAddress: bob, amountRaw: 5 }, "INVALID_AMOUNT_RAW"],
      ["an invalid user address", deposit, { userAddress: "nope", amountRaw: "1" }, "INVALID_USER_ADDRESS"],
      ["an off-curve user address", deposit, { userAddress: OFF_CURVE, amountRaw: "1" }, "USER_ADDRESS_OFF_CURVE"],
      ["both code and referrer", deposit, { userAddress: bob, amountRaw: "1", code: "X", referrer: wallet("b") }, "CONFLICTING_FIELDS"],
      ["both amountRaw and withdrawAll", withdraw, { userAddress: alice, amountRaw: "1", withdrawAll: true }, "CONFLICTING_FIELDS"],
      ["neither amountRaw nor withdrawAll", withdraw, { userAddress: alice }, "MISSING_FIELD"]
    ]
    for (const [name, path, body, code] of malformed) {
      it.effect(`400 ${code} for ${name}`, () =>
        Effect.gen(function*() {
          const answer = yield* post(yield* serverUrl, path, body)
          expect(answer.status).toBe(400)
          expect(answer.body).toMatchObject({ success: false, error: code })
          expect(typeof answer.body.message).toBe("string")
        }))
    }

    it.effect("policy rejections are 200 with accepted:false and no transaction", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const small = yield* post(url, deposit, { userAddress: bob, amountRaw: "1" })
        expect(small.status).toBe(200)
        expect(small.body.success).toBe(true)
        expect(small.body.data.validation.accepted).toBe(false)
        expect(small.body.data.validation.rejectionReasons[0].code).toBe("MIN_DEPOSIT_AMOUNT_NOT_MET")
        expect(small.body.data).not.toHaveProperty("transactionBase64")
        const none = yield* post(url, withdraw, { userAddress: bob, withdrawAll: true })
        expect(none.status).toBe(200)
        expect(none.body.data.validation.accepted).toBe(false)
        expect(none.body.data).not.toHaveProperty("transactionBase64")
      }))

    it.effect("404 VAULT_NOT_FOUND for an unknown vault; 413 over the body limit", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const unknown = yield* post(url, `/v2/vault/${wallet("nobody")}/tx/deposit`, { userAddress: bob, amountRaw: "5000000" })
        expect(unknown.status).toBe(404)
        expect(unknown.body).toMatchObject({ success: false, error: "VAULT_NOT_FOUND" })
        const huge = yield* post(url, deposit, { userAddress: bob, amountRaw: "1", code: "x".repeat(10_000) })
        expect(huge.status).toBe(413)
        expect(huge.headers.get("access-control-allow-origin")).toBe("*")
      }))

    it.effect("previews: estimates from the projection, 400 on bad queries", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
        const anonymous = yield* fetchJson(`${url}/v2/vault/${vault}/simulate-deposit?amountRaw=5000000`)
        expect(anonymous.status).toBe(401)
        const dep = yield* fetchJson(`${url}/v2/vault/${vault}/simulate-deposit?amountRaw=5000000`, keyed)
        expect(dep.status).toBe(200)
        expect(dep.body.data).toMatchObject({ accepted: true, grossAmountRaw: "5000000", estimate: true })
        const wd = yield* fetchJson(`${url}/v2/vault/${vault}/simulate-withdraw?sharesRaw=1000000`, keyed)
        expect(wd.body.data).toMatchObject({ accepted: true, sharesRaw: "1000000", estimate: true })
        const bad = yield* fetchJson(`${url}/v2/vault/${vault}/simulate-withdraw?sharesRaw=1&amountRaw=1`, keyed)
        expect(bad.status).toBe(400)
        expect(bad.body.error).toBe("CONFLICTING_FIELDS")
        expect(dep.headers.get("access-control-allow-origin")).toBeNull()
      }))

    it.effect("CORS preflight is answered on the builders and absent elsewhere", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const preflight = yield* fetchJson(`${url}${deposit}`, {
          method: "OPTIONS",
          headers: { origin: "https://dapp.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" }
        })
        expect(preflight.status).toBe(204)
        expect(preflight.headers.get("access-control-allow-origin")).toBe("*")
        expect(preflight.headers.get("access-control-allow-methods")).toContain("POST")
        expect(preflight.headers.get("access-control-allow-headers")).toContain("content-type")
        const other = yield* fetchJson(`${url}/v2/vault/${vault}/simulate-deposit?amountRaw=1`, {
          method: "OPTIONS",
          headers: { origin: "https://dapp.example", "access-control-request-method": "GET" }
        })
        expect(other.status).toBe(405)
        expect(other.headers.get("access-control-allow-origin")).toBeNull()
        const status = yield* fetchJson(`${url}/status`, { headers: { origin: "https://dapp.example" } })
        expect(status.headers.get("access-control-allow-origin")).toBeNull()
      }))

    it.effect("503 while the projection is not live", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        yield* control.setStatus(startingStatus)
        const answer = yield* post(yield* serverUrl, deposit, { userAddress: bob, amountRaw: "5000000" })
        yield* control.setStatus(liveStatus(100))
        expect(answer.status).toBe(503)
        expect(answer.body.error).toBe("PROJECTION_UNAVAILABLE")
      }))
  })
})

describe("per-IP metering of the builders", () => {
  layer(gatewayForTest({ initial: liveStatus(100), state: world.state }), { excludeTestServices: true })((it) => {
    it.effect("the 21st build in a window gets 429 with Retry-After and X-RateLimit-*", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        for (let i = 0; i < 20; i++) {
          const ok = yield* post(url, deposit, { userAddress: bob, amountRaw: "5000000" })
          expect(ok.status).toBe(200)
          expect(ok.headers.get("x-ratelimit-remaining")).toBe(String(19 - i))
        }
        const limited = yield* post(url, withdraw, { userAddress: alice, withdrawAll: true })
        expect(limited.status).toBe(429)
        expect(limited.body).toMatchObject({ success: false, error: "RATE_LIMITED", limit: 20, remaining: 0 })
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
        expect(limited.headers.get("x-ratelimit-limit")).toBe("20")
        expect(limited.headers.get("x-ratelimit-remaining")).toBe("0")
        expect(limited.headers.get("access-control-allow-origin")).toBe("*")
        // a valid partner key is metered on the key's quota, not the IP's; an invalid one is ignored
        const keyed = yield* post(url, deposit, { userAddress: bob, amountRaw: "5000000" }, { "x-api-key": TEST_PARTNER_KEY })
        expect(keyed.status).toBe(200)
        expect(keyed.headers.get("x-ratelimit-limit")).toBe("1000")
        const wrongKey = yield* post(url, deposit, { userAddress: bob, amountRaw: "5000000" }, { "x-api-key": "vg_sandbox_nope" })
        expect(wrongKey.status).toBe(429)
      }))
  })
})

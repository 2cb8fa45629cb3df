import { OpenApi } from "@effect/platform"
import { createSignInMessage } from "@solana/wallet-standard-util"
import { Effect, Either, Layer } from "effect"
import { RateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"
import { SignInNonces } from "../../../services/SignInNonces.ts"
import { makeSignInFlow } from "../../../src/api/controlPlane/signInFlow.ts"
import { describe, expect, it } from "vitest"
import { Api } from "../../../src/api/Api.ts"
import { httpStatusOf } from "../../../src/errors/codes.ts"
import { chainIdOf } from "../../../src/api/controlPlane/controlPlaneConfig.ts"
import {
  clearedSessionCookie,
  cookieName,
  hashSessionToken,
  newSessionToken,
  sessionCookie,
  sessionTokenOf
} from "../../../src/domain/controlPlane/sessionCookie.ts"
import { checkSignIn, makeSignInInput, SIGN_IN_STATEMENT } from "../../../src/domain/controlPlane/signIn.ts"
import { scopeForPath } from "../../../src/domain/partnerKeys/scopes.ts"
import { testSettings } from "./controlPlaneServer.ts"
import { newWallet } from "./signInWallet.ts"

describe("key scopes by path", () => {
  it("reporting, builds and stream routes need their scope; every other read needs reads", () => {
    expect(scopeForPath("/v2/referrer/abc/summary")).toBe("reporting")
    expect(scopeForPath("/v2/partner/agreements")).toBe("reporting")
    expect(scopeForPath("/v2/vault/abc/tx/deposit")).toBe("builds")
    expect(scopeForPath("/api/v1/vault/7/withdraw-instructions")).toBe("builds")
    expect(scopeForPath("/v2/stream")).toBe("stream")
    for (const path of ["/v2/vaults", "/v2/vault/abc/metrics", "/v2/platform/stats", "/v2/user/w/portfolio", "/api/v1/vaults", "/v2/referrers"]) {
      expect(scopeForPath(path), path).toBe("reads")
    }
  })
})

describe("session cookie", () => {
  it("http origins: vg_session, HttpOnly, SameSite=Strict, Path=/, no Secure", () => {
    const token = newSessionToken()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(sessionCookie({ secure: false }, token, 60)).toBe(`vg_session=${token}; Max-Age=60; Path=/; HttpOnly; SameSite=Strict`)
    expect(hashSessionToken(token)).toMatch(/^[0-9a-f]{64}$/)
  })

  it("https origins: the __Host- prefix and Secure", () => {
    const token = newSessionToken()
    expect(cookieName({ secure: true })).toBe("__Host-vg_session")
    expect(sessionCookie({ secure: true }, token, 60)).toBe(`__Host-vg_session=${token}; Max-Age=60; Path=/; HttpOnly; SameSite=Strict; Secure`)
    expect(clearedSessionCookie({ secure: true })).toBe("__Host-vg_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure")
    // the unprefixed name is not read on https, nor a malformed token
    expect(sessionTokenOf({ secure: true }, `vg_session=${token}`)).toBeUndefined()
    expect(sessionTokenOf({ secure: true }, `a=b; __Host-vg_session=${token}`)).toBe(token)
    expect(sessionTokenOf({ secure: false }, "vg_session=short")).toBeUndefined()
  })
})

describe("Sign-In With Solana checks", () => {
  const settings = { origin: new URL("https://gateway.example"), chainId: chainIdOf("mainnet") }
  const now = Date.parse("2026-11-25T12:00:00.000Z")
  const issued = makeSignInInput(settings, "0123456789abcdef0123456789abcdef", SIGN_IN_STATEMENT, new Date(now))
  const wallet = newWallet()
  const output = (fields: Record<string, string> = {}) => {
    const message = createSignInMessage({ ...issued, ...fields, address: wallet.address })
    return { address: wallet.address, publicKey: wallet.publicKey, signedMessage: message, signature: wallet.sign(message) }
  }

  it("issues the domain and uri of the origin, version 1, the cluster's chain id and a 10-minute window", () => {
    expect(issued).toMatchObject({ domain: "gateway.example", uri: "https://gateway.example", version: "1", chainId: "solana:mainnet" })
    expect(Date.parse(issued.expirationTime) - Date.parse(issued.issuedAt)).toBe(600_000)
    expect(chainIdOf("sandbox")).toBe("solana:devnet")
  })

  it("accepts the issued message and refuses time windows it excludes", () => {
    expect(checkSignIn(issued, issued, output(), now + 1_000)).toEqual(Either.right(wallet.address))
    expect(Either.getLeft(checkSignIn(issued, {}, output(), now + 600_000)).pipe((left) => left._tag === "Some" && left.value.reason)).toBe("time")
    const notYet = output({ notBefore: new Date(now + 60_000).toISOString() })
    expect(Either.getLeft(checkSignIn(issued, {}, notYet, now + 1_000)).pipe((left) => left._tag === "Some" && left.value.reason)).toBe("time")
    const ready = output({ notBefore: new Date(now - 60_000).toISOString() })
    expect(checkSignIn(issued, {}, ready, now + 1_000)).toEqual(Either.right(wallet.address))
    const withResources = output({ requestId: "x" })
    expect(Either.getLeft(checkSignIn(issued, {}, withResources, now)).pipe((left) => left._tag === "Some" && left.value.reason)).toBe("mismatch")
  })
})

describe("control-plane contract", () => {
  it("/openapi.json documents the routes with a cookie security scheme", () => {
    const spec = OpenApi.fromApi(Api)
    expect(Object.values(spec.components.securitySchemes)).toContainEqual({ type: "apiKey", name: "vg_session", in: "cookie" })
    for (const path of ["/v2/auth/nonce", "/v2/auth/verify", "/v2/org/keys/generate", "/v2/org/codes/{code}/disable", "/v2/org/audit"]) {
      expect(spec.paths[path], path).toBeDefined()
    }
  })

  it("control-plane codes answer with the registry's statuses", () => {
    expect(httpStatusOf(["ORIGIN_MISMATCH"])).toBe(403)
    expect(httpStatusOf(["SESSION_REQUIRED"])).toBe(401)
    expect(httpStatusOf(["IDEMPOTENCY_KEY_REUSED"])).toBe(422)
  })
})

describe("sign-in meter", () => {
  it("nonce and verify requests are counted per client IP", async () => {
    const nonces = Layer.succeed(SignInNonces, { store: () => Effect.void, find: () => Effect.succeed(null), consume: () => Effect.succeed(false) })
    const request = (ip: string) => ({ id: "r", method: "POST", path: "/v2/auth/nonce", query: "", header: () => undefined, remoteAddress: ip })
    const outcomes = await Effect.runPromise(
      Effect.gen(function*() {
        const flow = yield* makeSignInFlow(testSettings({ signInQuota: { limit: 2, windowSeconds: 60 } }))
        const one = (ip: string) => Effect.map(Effect.either(flow.meter(request(ip))), (result) => result._tag === "Right" ? "ok" : result.left.code)
        return [yield* one("10.0.0.1"), yield* one("10.0.0.1"), yield* one("10.0.0.1"), yield* one("10.0.0.2")]
      }).pipe(Effect.provide(Layer.merge(nonces, RateLimiterLive)))
    )
    expect(outcomes).toEqual(["ok", "ok", "RATE_LIMITED", "ok"])
  })
})

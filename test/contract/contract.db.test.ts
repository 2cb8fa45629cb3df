import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Validator } from "@seriousme/openapi-schema-validator"
import { serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { liveStatus, ProjectionControl } from "../../src/bench/support/projectionTest.ts"
import { putReferrer } from "../../src/bench/support/referrersFixture.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { makeClient, ORIGIN } from "../api/controlPlane/controlPlaneServer.ts"
import { newWallet, signInProof, type TestWallet } from "../api/controlPlane/signInWallet.ts"
import type { ContractFixtures } from "./support/fixtures.ts"
import type { OpenApiDocument } from "./support/openApiDocument.ts"
import { coverageTable, runContract, summarize } from "./support/runContract.ts"
import {
  ALICE, BOB, BUILDER, contractFixture, contractGateway, FUNDING_ARB, LEGACY_IDS, MASTER, NOBODY, NOW, UNKNOWN_VAULT, UNLISTED
} from "./support/contractServer.ts"

const SEED = process.env.CONTRACT_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.CONTRACT_SEED)
const REQUESTS = Number(process.env.CONTRACT_REQUESTS ?? 10_000)
// to chase one finding: CONTRACT_ONLY=auth.verify,org.transferOwner (the run then does not check coverage);
// CONTRACT_COVERAGE=1 prints what each operation answered
const ONLY = process.env.CONTRACT_ONLY?.split(",")
// share of valid requests in the main run (the rest are hostile)
const VALID_SHARE = Number(process.env.CONTRACT_VALID_SHARE ?? 0.5)
const CONCURRENCY = Number(process.env.CONTRACT_CONCURRENCY ?? 6)

const fixture = contractFixture()

type Client = ReturnType<typeof makeClient>

const signIn = (client: Client, wallet: TestWallet) =>
  Effect.gen(function*() {
    const nonce = yield* client.post("/v2/auth/nonce")
    const verified = yield* client.post("/v2/auth/verify", signInProof(wallet, nonce.body.data))
    if (verified.status !== 200) return yield* Effect.dieMessage(`sign-in refused: ${JSON.stringify(verified.body)}`)
    return client.cookie()!
  })

/**
 * The builder's organization as the run uses it: a signed-in wallet (also a referrer in the
 * projection), a public code and one to toggle, a working key with every scope, a revoked key, keys
 * and sessions the run may rotate, revoke or end, an ended session, and unused sign-in proofs.
 */
const setUp = (url: string) =>
  Effect.gen(function*() {
    // the partner's organization holds the keys the run reads with; the run manages another one
    // (generating a key there revokes all of its earlier keys)
    const partner = makeClient(url)
    yield* signIn(partner, newWallet())
    const wallet = newWallet()
    const client = makeClient(url)
    const cookie = yield* signIn(client, wallet)
    fixture.position(MASTER, NOBODY, { shares: 7_000_000n, netDeposits: 5_000_000n, referrer: wallet.address as never })
    putReferrer(fixture.state, MASTER, wallet.address as never)
    putReferrer(fixture.state, MASTER, BUILDER)
    const ok = (response: { status: number; body: any }) => {
      if (response.status !== 200) throw new Error(`set-up step refused: ${JSON.stringify(response.body)}`)
      return response.body.data
    }
    ok(yield* client.post("/v2/org/codes", { code: "contract-1" }))
    ok(yield* client.post("/v2/org/codes", { code: "contract-2" }))
    const key: string = ok(yield* partner.post("/v2/org/keys", { name: "contract", scopes: ["reads", "reporting", "builds", "stream"] })).key
    const revoked = ok(yield* partner.post("/v2/org/keys", { name: "revoked", scopes: ["reads"] }))
    ok(yield* partner.post(`/v2/org/keys/${revoked.apiKey.id}/revoke`))
    const spareKeys: Array<string> = []
    for (let i = 0; i < 5; i++) spareKeys.push(ok(yield* client.post("/v2/org/keys", { name: `spare-${i}`, scopes: ["reads"] })).apiKey.id)
    // other sessions of the same wallet, for the run to end one by one
    for (let i = 0; i < 5; i++) yield* signIn(makeClient(url), wallet)
    const sessions: Array<{ id: string; current: boolean }> = ok(yield* client.get("/v2/auth/sessions")).sessions
    const ended = makeClient(url)
    const endedCookie = yield* signIn(ended, wallet)
    ok(yield* ended.post("/v2/auth/logout"))
    const proofs = []
    for (let i = 0; i < 30; i++) proofs.push(signInProof(wallet, (yield* makeClient(url).post("/v2/auth/nonce")).body.data))
    const fixtures: ContractFixtures = {
      values: {
        vaultAddress: [MASTER, FUNDING_ARB, UNLISTED],
        vault: [MASTER, FUNDING_ARB],
        wallet: [ALICE, BOB, NOBODY],
        address: [BUILDER, wallet.address, NOBODY],
        userAddress: [ALICE, BOB],
        // Solana Actions: the signing wallet, attribution and an amount in major units
        account: [ALICE, BOB],
        referrer: [BUILDER],
        amount: ["1", "12.5", "0.000001"],
        vaultId: LEGACY_IDS,
        code: ["contract-1", "CONTRACT-1"],
        limit: ["1", "2", "50", "100"],
        startDate: ["2026-12-01", "2026-12-10"],
        endDate: ["2026-12-20", "2027-01-14"],
        amountRaw: ["1", "1000000", "25000000", "999999999999"],
        sharesRaw: ["1", "1000000", "400000000"],
        // a small pool, so that some keys are replayed, with the same or another body
        "idempotency-key": Array.from({ length: 40 }, (_, i) => `contract-${i}`)
      },
      omit: ["cursor"],
      perOperation: {
        "auth.endSession": { id: sessions.filter((session) => !session.current).map((session) => session.id) },
        "org.rotateKey": { id: spareKeys },
        "org.revokeKey": { id: spareKeys },
        "org.disableCode": { code: ["contract-2"] },
        "org.claimCode": { code: Array.from({ length: 400 }, (_, i) => `fresh-${i}`) },
        "org.enableCode": { code: ["contract-2"] }
      },
      bodies: {
        "builds.deposit": [
          { userAddress: ALICE, amountRaw: "25000000" },
          { userAddress: BOB, amountRaw: "1000000", code: "contract-1" },
          { userAddress: ALICE, amountRaw: "5000000", referrer: BUILDER, requireAttribution: true },
          { userAddress: ALICE, amountRaw: "1" }
        ],
        "builds.withdraw": [{ userAddress: ALICE, amountRaw: "1000000" }, { userAddress: BOB, withdrawAll: true }],
        "legacyBuilds.depositInstructions": [{ userAddress: ALICE, amountRaw: "25000000" }],
        "legacyBuilds.withdrawInstructions": [{ userAddress: ALICE, amountRaw: "1000000" }],
        "auth.verify": proofs
      },
      unknown: { vaultAddress: [UNKNOWN_VAULT], vault: [UNKNOWN_VAULT], vaultId: ["1", "999999"], code: ["no-such-code"], id: ["00000000-0000-0000-0000-000000000000"] },
      credentials: {
        apiKeys: [key],
        revokedApiKeys: [revoked.key],
        // logging out ends the session: that operation gets a new one each time
        cookie: (operationId) => operationId === "auth.logout" ? Effect.runPromise(signIn(makeClient(url), wallet)) : cookie,
        endedCookies: [endedCookie],
        origin: ORIGIN
      }
    }
    return fixtures
  })

const followCursor = { param: "cursor", read: (body: any) => body?.data?.nextCursor }

let fixturesOnce: ContractFixtures | undefined
/** The set-up runs once per server: its sessions and keys serve every run of this file. */
const fixturesFor = (url: string) =>
  fixturesOnce === undefined ? Effect.tap(setUp(url), (fixtures) => Effect.sync(() => void (fixturesOnce = fixtures))) : Effect.succeed(fixturesOnce)

/** A copy of the document, changed by `edit`: the planted-violation runs check against it. */
const planted = (document: OpenApiDocument, edit: (copy: any) => void): OpenApiDocument => {
  const copy = structuredClone(document)
  edit(copy)
  return copy
}

const fetchDocument = (url: string) => Effect.map(fetchJson(`${url}/openapi.json`), (response) => response.body as OpenApiDocument)

describe("contract: every answer agrees with /openapi.json", () => {
  layer(contractGateway(fixture), { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("/openapi.json is a valid OpenAPI 3.1 document", () =>
      Effect.gen(function*() {
        const document = yield* fetchDocument(yield* serverUrl)
        const validator = new Validator()
        const result = yield* Effect.promise(() => validator.validate(document as unknown as Parameters<Validator["validate"]>[0]))
        expect(validator.version).toBe("3.1")
        expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([])
        expect(result.valid).toBe(true)
      }))

    it.effect(`${REQUESTS} seeded requests, valid and hostile, over every operation: 0 violations`, () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const document = yield* fetchDocument(url)
        const fixtures = yield* fixturesFor(url)
        const run = yield* Effect.promise(() => runContract({ document, baseUrl: url, seed: SEED, fixtures, requests: REQUESTS, validShare: VALID_SHARE, concurrency: CONCURRENCY, followCursor, ...(ONLY === undefined ? {} : { only: ONLY }) }))
        console.log(`contract run: seed ${run.seed}, ${run.requests} requests in ${run.millis} ms, ${run.violations.length} violations`)
        if (run.violations.length > 0 || process.env.CONTRACT_COVERAGE !== undefined) console.log(coverageTable(run))
        expect(run.requests).toBeGreaterThanOrEqual(REQUESTS)
        // every operation was exercised, with valid requests among them
        for (const [path, item] of ONLY === undefined ? Object.entries(document.paths) : []) {
          for (const operation of Object.values<any>(item)) {
            expect(run.coverage[operation.operationId]?.valid ?? 0, `${operation.operationId} (${path})`).toBeGreaterThan(0)
          }
        }
        expect(run.violations.length, summarize(run)).toBe(0)
      }), { timeout: 240_000 })
    it.effect("while the projection is not live, reads answer the documented 503 with Retry-After", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const document = yield* fetchDocument(url)
        const fixtures = yield* fixturesFor(url)
        const control = yield* ProjectionControl
        yield* control.setStatus({ ...liveStatus(5_000, { asOf: { slot: 5_000, blockTime: NOW } }), status: "catching_up", lagSlots: 900, reason: "catching up" })
        const run = yield* Effect.promise(() => runContract({ document, baseUrl: url, seed: SEED + 1, fixtures, requests: 1_000, validShare: 0.7 })).pipe(
          Effect.ensuring(control.setStatus(liveStatus(5_000, { asOf: { slot: 5_000, blockTime: NOW } })))
        )
        const unavailable = Object.values(run.coverage).reduce((sum, entry) => sum + (entry.statuses["503"] ?? 0), 0)
        console.log(`contract run (not live): seed ${run.seed}, ${run.requests} requests in ${run.millis} ms, ${unavailable} answered 503`)
        expect(unavailable).toBeGreaterThan(100)
        expect(run.violations.length, summarize(run)).toBe(0)
      }), { timeout: 120_000 })

    it.effect("catches a planted wrong status: 404 removed from GET /v2/vault/{vaultAddress}", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const document = planted(yield* fetchDocument(url), (copy) => delete copy.paths["/v2/vault/{vaultAddress}"].get.responses["404"])
        const fixtures = yield* fixturesFor(url)
        const run = yield* Effect.promise(() => runContract({ document, baseUrl: url, seed: SEED, fixtures, requests: 400, only: ["vaults.get"] }))
        const wrongStatus = run.violations.filter((v) => v.status === 404 && v.reason.startsWith("status 404 is not documented for vaults.get"))
        expect(wrongStatus.length, summarize(run)).toBeGreaterThan(0)
        expect(wrongStatus.length).toBe(run.violations.length)
      }))

    it.effect("catches a planted schema mismatch: a required property of the vault answer renamed", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        let renamed = ""
        const document = planted(yield* fetchDocument(url), (copy) => {
          const ref: string = copy.paths["/v2/vault/{vaultAddress}"].get.responses["200"].content["application/json"].schema.$ref
          const schema = copy.components.schemas[ref.split("/").pop()!]
          renamed = schema.required[schema.required.length - 1]
          schema.required = schema.required.map((name: string) => (name === renamed ? `${name}Renamed` : name))
          schema.properties[`${renamed}Renamed`] = schema.properties[renamed]
          delete schema.properties[renamed]
        })
        const fixtures = yield* fixturesFor(url)
        const run = yield* Effect.promise(() => runContract({ document, baseUrl: url, seed: SEED, fixtures, requests: 400, only: ["vaults.get"] }))
        const mismatches = run.violations.filter((v) => v.status === 200 && v.reason.includes("does not match the documented schema") && v.reason.includes(`${renamed}Renamed`))
        expect(renamed).not.toBe("")
        expect(mismatches.length, summarize(run)).toBeGreaterThan(0)
        expect(mismatches.length).toBe(run.violations.length)
      }))
  })
})

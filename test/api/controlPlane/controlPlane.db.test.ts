import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { PartnerKeysLive } from "../../../layers/postgres/PartnerKeysLive.ts"
import { PartnerKeys } from "../../../services/PartnerKeys.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { serverUrl } from "../../../src/bench/support/httpTestServer.ts"
import { waitForStatus } from "../../support/waitForStatus.ts"
import { controlPlaneGateway, logLines, makeClient, ORIGIN } from "./controlPlaneServer.ts"
import { type Input, newWallet, signInProof, type TestWallet } from "./signInWallet.ts"

// Secrets handed out during the run: none may appear in a log line.
const secrets: Array<string> = []

const signIn = (client: ReturnType<typeof makeClient>, wallet: TestWallet) =>
  Effect.gen(function*() {
    const nonce = yield* client.post("/v2/auth/nonce")
    expect(nonce.status).toBe(200)
    const verified = yield* client.post("/v2/auth/verify", signInProof(wallet, nonce.body.data))
    expect(verified.status, JSON.stringify(verified.body)).toBe(200)
    secrets.push(client.cookie()!.split("=")[1]!)
    return verified
  })

const withKey = (key: string) => ({ "x-api-key": key })

/** A browser client of the test gateway, a new wallet and the test database. */
const setUp = Effect.gen(function*() {
  const url = yield* serverUrl
  return { url, client: makeClient(url), wallet: newWallet(), sql: yield* SqlClient.SqlClient }
})

describe("builder control plane", () => {
  layer(controlPlaneGateway(), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("sign in, claim a code, issue, use, rotate, revoke and generate keys, audit, sign out", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const client = makeClient(url)
        const wallet = newWallet()

        const nonce = yield* client.post("/v2/auth/nonce")
        const input: Input = nonce.body.data
        expect(input).toMatchObject({ domain: "gateway.test", uri: ORIGIN, version: "1", chainId: "solana:devnet" })
        expect(input.nonce).toMatch(/^[0-9a-f]{32}$/)
        expect(Date.parse(input.expirationTime!) - Date.parse(input.issuedAt!)).toBe(600_000)
        expect(nonce.headers.get("access-control-allow-origin")).toBeNull()

        const verified = yield* client.post("/v2/auth/verify", signInProof(wallet, input))
        expect(verified.status).toBe(200)
        const setCookie = verified.headers.get("set-cookie")!
        expect(setCookie).toMatch(/^vg_session=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Strict$/)
        expect(verified.headers.get("cache-control")).toBe("no-store")
        expect(verified.body.data).toMatchObject({ wallet: wallet.address, organizationCreated: true, organization: { ownerWallet: wallet.address } })
        secrets.push(client.cookie()!.split("=")[1]!)

        const session = yield* client.get("/v2/auth/session")
        expect(session.status).toBe(200)
        expect(session.body.data.session).toMatchObject({ wallet: wallet.address, current: true })

        // codes: claimed, resolved publicly, unique without regard to case, disabled and enabled
        const claimed = yield* client.post("/v2/org/codes", { code: "Acme-1" })
        expect(claimed.status).toBe(200)
        expect(claimed.body.data.code).toMatchObject({ code: "Acme-1", enabled: true, referrer: wallet.address })
        expect((yield* fetchJson(`${url}/public/codes/acme-1`)).body.data.referrer).toBe(wallet.address)
        expect((yield* client.post("/v2/org/codes", { code: "ACME-1" })).body.error).toBe("CODE_TAKEN")
        expect((yield* client.post("/v2/org/codes", { code: "a!" })).body.error).toBe("INVALID_CODE")
        expect((yield* client.post("/v2/org/codes/acme-1/disable")).body.data.code.enabled).toBe(false)
        expect((yield* fetchJson(`${url}/public/codes/Acme-1`)).status).toBe(404)
        expect((yield* client.post("/v2/org/codes", { code: "acme-1" })).body.error).toBe("CODE_TAKEN")
        expect((yield* client.post("/v2/org/codes/ACME-1/enable")).body.data.code.enabled).toBe(true)
        expect((yield* fetchJson(`${url}/public/codes/ACME-1`)).status).toBe(200)
        expect((yield* client.get("/v2/org/codes")).body.data.codes).toHaveLength(1)

        // a key with the reads scope: used on /v2/vaults, refused on reporting (403, own code)
        const issued = yield* client.post("/v2/org/keys", { name: "backend", scopes: ["reads"] })
        expect(issued.status).toBe(200)
        expect(issued.headers.get("cache-control")).toBe("no-store")
        const readsKey: string = issued.body.data.key
        secrets.push(readsKey)
        expect(readsKey).toMatch(/^vg_sandbox_/)
        expect(issued.body.data.apiKey).toMatchObject({ name: "backend", scopes: ["reads"], last4: readsKey.slice(-4), active: true })
        expect((yield* fetchJson(`${url}/v2/vaults`, { headers: withKey(readsKey) })).status).toBe(200)
        const refused = yield* fetchJson(`${url}/v2/referrer/${wallet.address}/summary`, { headers: withKey(readsKey) })
        expect([refused.status, refused.body.error]).toEqual([403, "INSUFFICIENT_SCOPE"])
        // a key never manages keys; a session never reads data
        const keyOnControl = yield* fetchJson(`${url}/v2/org/keys`, { headers: withKey(readsKey) })
        expect([keyOnControl.status, keyOnControl.body.error]).toEqual([401, "SESSION_REQUIRED"])
        const sessionOnData = yield* fetchJson(`${url}/v2/vaults`, { headers: { cookie: client.cookie()! } })
        expect([sessionOnData.status, sessionOnData.body.error]).toEqual([401, "UNAUTHORIZED"])

        // agreements resolve the organization's owner wallet for any key of it
        const reporting = yield* client.post("/v2/org/keys", { name: "reports", scopes: ["reporting"] })
        secrets.push(reporting.body.data.key)
        const agreements = yield* fetchJson(`${url}/v2/partner/agreements`, { headers: withKey(reporting.body.data.key) })
        expect(agreements.status).toBe(200)
        expect(agreements.body.data.ownerWallet).toBe(wallet.address)

        // rotate: the old key works for the grace period, the new one at once
        const rotated = yield* client.post(`/v2/org/keys/${issued.body.data.apiKey.id}/rotate`)
        expect(rotated.status).toBe(200)
        const rotatedKey: string = rotated.body.data.key
        secrets.push(rotatedKey)
        const grace = Date.parse(rotated.body.data.previous.expiresAt) - Date.now()
        expect(grace).toBeGreaterThan(50_000)
        expect(grace).toBeLessThanOrEqual(60_000)
        expect((yield* fetchJson(`${url}/v2/vaults`, { headers: withKey(readsKey) })).status).toBe(200)
        expect((yield* fetchJson(`${url}/v2/vaults`, { headers: withKey(rotatedKey) })).status).toBe(200)

        // revoke: refused at once (NOTIFY drops the cached record)
        const revoked = yield* client.post(`/v2/org/keys/${rotated.body.data.apiKey.id}/revoke`)
        expect(revoked.body.data.apiKey.active).toBe(false)
        yield* waitForStatus(fetchJson(`${url}/v2/vaults`, { headers: withKey(rotatedKey) }), 401, 5_000)
        expect((yield* client.post(`/v2/org/keys/${rotated.body.data.apiKey.id}/revoke`)).body.error).toBe("KEY_NOT_FOUND")

        // Generate key: one active key remains, even with two concurrent calls
        const [first, second] = yield* Effect.all([client.post("/v2/org/keys/generate", {}), client.post("/v2/org/keys/generate", {})], {
          concurrency: 2
        })
        expect([first.status, second.status]).toEqual([200, 200])
        secrets.push(first.body.data.key, second.body.data.key)
        const keys = (yield* client.get("/v2/org/keys")).body.data.keys as Array<{ id: string; active: boolean; scopes: Array<string> }>
        const active = keys.filter((key) => key.active)
        expect(active).toHaveLength(1)
        expect(active[0]!.scopes).toEqual(["reads", "reporting", "builds", "stream"])
        yield* waitForStatus(fetchJson(`${url}/v2/vaults`, { headers: withKey(readsKey) }), 401, 5_000)
        const survivor = [first, second].find((answer) => answer.body.data.apiKey.id === active[0]!.id)!
        expect((yield* fetchJson(`${url}/v2/vaults`, { headers: withKey(survivor.body.data.key) })).status).toBe(200)
        // lists never carry a plaintext
        const listing = JSON.stringify(keys)
        for (const secret of secrets) expect(listing).not.toContain(secret)

        // usage counted in memory and flushed: last use shows up in the list
        yield* Effect.sleep("1500 millis")
        const used = (yield* client.get("/v2/org/keys")).body.data.keys.find((key: { id: string }) => key.id === active[0]!.id)
        expect(used.lastUsedAt).not.toBeNull()
        const sql = yield* SqlClient.SqlClient
        const usage = yield* sql<{ requests: string }>`SELECT requests::text AS requests FROM partner_key_usage WHERE key_id = ${active[0]!.id}::uuid`
        expect(Number(usage[0]!.requests)).toBeGreaterThanOrEqual(1)

        // the audit log, paged with a cursor
        const actions: Array<string> = []
        let cursor: string | null = null
        do {
          const page: { body: { data: { entries: Array<{ action: string; wallet: string }>; nextCursor: string | null } } } = yield* client.get(
            `/v2/org/audit?limit=3${cursor === null ? "" : `&cursor=${cursor}`}`
          )
          expect(page.body.data.entries.length).toBeLessThanOrEqual(3)
          for (const entry of page.body.data.entries) {
            expect(entry.wallet).toBe(wallet.address)
            actions.push(entry.action)
          }
          cursor = page.body.data.nextCursor
        } while (cursor !== null)
        expect(actions.reverse()).toEqual([
          "organization.created",
          "session.signed_in",
          "code.claimed",
          "code.disabled",
          "code.enabled",
          "key.issued",
          "key.issued",
          "key.rotated",
          "key.revoked",
          "key.generated",
          "key.generated"
        ])
        expect((yield* client.get("/v2/org/audit?cursor=bm9wZQ")).body.error).toBe("INVALID_CURSOR")

        // sign-out ends the session at once and clears the cookie
        const oldCookie = client.cookie()!
        const loggedOut = yield* client.post("/v2/auth/logout")
        expect(loggedOut.status).toBe(200)
        expect(loggedOut.headers.get("set-cookie")).toBe("vg_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict")
        const after = yield* fetchJson(`${url}/v2/auth/session`, { headers: { cookie: oldCookie } })
        expect([after.status, after.body.error]).toEqual([401, "SESSION_REQUIRED"])
      }))

    it.effect("Idempotency-Key: a retry answers as the first call (without the plaintext again), another body is refused", () =>
      Effect.gen(function*() {
        const client = makeClient(yield* serverUrl)
        yield* signIn(client, newWallet())
        const headers = { "idempotency-key": "issue-1" }
        const first = yield* client.post("/v2/org/keys", { name: "ci", scopes: ["reads"] }, headers)
        expect(first.status).toBe(200)
        secrets.push(first.body.data.key)
        expect(first.headers.get("idempotent-replayed")).toBeNull()
        const again = yield* client.post("/v2/org/keys", { name: "ci", scopes: ["reads"] }, headers)
        expect(again.status).toBe(200)
        expect(again.headers.get("idempotent-replayed")).toBe("true")
        expect(again.body.data.key).toBeNull()
        expect(again.body.data.apiKey).toEqual(first.body.data.apiKey)
        const other = yield* client.post("/v2/org/keys", { name: "other", scopes: ["reads"] }, headers)
        expect([other.status, other.body.error]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"])
        expect((yield* client.get("/v2/org/keys")).body.data.keys).toHaveLength(1)
        const bad = yield* client.post("/v2/org/codes", { code: "idem" }, { "idempotency-key": "has space" })
        expect([bad.status, bad.body.error]).toEqual([400, "IDEMPOTENCY_KEY_INVALID"])
      }))

    it.effect("each forged or stale sign-in is refused with its code", () =>
      Effect.gen(function*() {
        const { client, sql, url, wallet } = yield* setUp
        const other = newWallet()
        const fresh = Effect.map(client.post("/v2/auth/nonce"), (answer) => answer.body.data as Input)
        const verify = (body: unknown) => client.post("/v2/auth/verify", body)
        const refusal = (answer: { status: number; body: any }) => [answer.status, answer.body.error]

        // replayed nonce
        const proof = signInProof(wallet, yield* fresh)
        expect((yield* verify(proof)).status).toBe(200)
        expect(refusal(yield* verify(proof))).toEqual([401, "SIWS_NONCE_INVALID"])
        // expired nonce
        const expiring = yield* fresh
        yield* sql`UPDATE siws_nonce SET expires_at = now() - interval '1 second' WHERE nonce = ${expiring.nonce!}`
        expect(refusal(yield* verify(signInProof(wallet, expiring)))).toEqual([401, "SIWS_NONCE_INVALID"])
        // issuedAt more than 10 minutes from the server's time (as issued, so only the time is wrong)
        const skewed = yield* fresh
        const old = { ...skewed, issuedAt: new Date(Date.now() - 11 * 60_000).toISOString() }
        yield* sql`UPDATE siws_nonce SET input = ${JSON.stringify(old)}::jsonb WHERE nonce = ${skewed.nonce!}`
        expect(refusal(yield* verify(signInProof(wallet, old)))).toEqual([401, "SIWS_EXPIRED"])
        // another domain, another chain id, an uri of its own
        expect(refusal(yield* verify(signInProof(wallet, yield* fresh, { signed: { domain: "evil.test" } })))).toEqual([401, "SIWS_FIELD_MISMATCH"])
        expect(refusal(yield* verify(signInProof(wallet, yield* fresh, { signed: { chainId: "solana:mainnet" } })))).toEqual([401, "SIWS_FIELD_MISMATCH"])
        const echoed = yield* fresh
        expect(refusal(yield* verify({ ...signInProof(wallet, echoed), input: { ...echoed, uri: "http://evil.test" } }))).toEqual([401, "SIWS_FIELD_MISMATCH"])
        // a signature by another key
        expect(refusal(yield* verify(signInProof(wallet, yield* fresh, { signer: other })))).toEqual([401, "SIWS_SIGNATURE_INVALID"])
        // one flipped byte: of the signature, of the message
        const flippedSignature = signInProof(wallet, yield* fresh, { tamperSignature: (s) => (s[10] = s[10]! ^ 1, s) })
        expect(refusal(yield* verify(flippedSignature))).toEqual([401, "SIWS_SIGNATURE_INVALID"])
        const flippedMessage = signInProof(wallet, yield* fresh, {
          tamper: (m) => {
            // a letter of the statement, so that the message still parses
            const at = Buffer.from(m).indexOf("Sign in to") + 1
            m[at] = m[at]! ^ 0x20
            return m
          }
        })
        expect((yield* verify(flippedMessage)).status).toBe(401)
        // the address the message names differs from account.address
        const otherAccount = signInProof(wallet, yield* fresh)
        expect(refusal(yield* verify({ ...otherAccount, output: { ...otherAccount.output, account: { address: other.address, publicKey: Buffer.from(other.publicKey).toString("base64") } } }))).toEqual([
          401,
          "SIWS_FIELD_MISMATCH"
        ])
        // a missing field of the message, a missing field of the body, an oversize message
        expect(refusal(yield* verify(signInProof(wallet, yield* fresh, { omit: ["expirationTime"] })))).toEqual([400, "SIWS_MESSAGE_INVALID"])
        expect(refusal(yield* verify(signInProof(wallet, yield* fresh, { omit: ["nonce"] })))).toEqual([400, "SIWS_MESSAGE_INVALID"])
        const noSignature = signInProof(wallet, yield* fresh)
        expect(refusal(yield* verify({ ...noSignature, output: { ...noSignature.output, signature: undefined } }))).toEqual([400, "INVALID_BODY"])
        expect(refusal(yield* verify(signInProof(wallet, yield* fresh, { signed: { statement: "x".repeat(3000) } })))).toEqual([400, "SIWS_MESSAGE_INVALID"])
        // a sign-in posted by another site's page
        const crossSite = yield* fetchJson(`${url}/v2/auth/verify`, {
          method: "POST",
          headers: { origin: "http://evil.test", "content-type": "application/json" },
          body: JSON.stringify(signInProof(wallet, yield* fresh))
        })
        expect(refusal(crossSite)).toEqual([403, "ORIGIN_MISMATCH"])
        // wallets without signIn sign the same text with signMessage: the same proof
        expect((yield* verify(signInProof(wallet, yield* fresh))).status).toBe(200)
      }))

    it.effect("cookie requests from another origin, and idle or expired sessions, are refused", () =>
      Effect.gen(function*() {
        const { client, sql, url, wallet } = yield* setUp
        yield* signIn(client, wallet)
        const cookie = client.cookie()!
        const post = (origin: string | undefined) =>
          fetchJson(`${url}/v2/org/codes`, {
            method: "POST",
            headers: { cookie, "content-type": "application/json", ...(origin === undefined ? {} : { origin }) },
            body: JSON.stringify({ code: "crossed" })
          })
        for (const origin of ["http://evil.test", undefined, "http://gateway.test:8080"]) {
          const answer = yield* post(origin)
          expect([answer.status, answer.body.error]).toEqual([403, "ORIGIN_MISMATCH"])
          expect(answer.headers.get("access-control-allow-origin")).toBeNull()
        }
        expect((yield* client.get("/v2/org/codes")).body.data.codes).toHaveLength(0)
        expect((yield* post(ORIGIN)).status).toBe(200)

        const hashes = yield* sql<{ wallet: string }>`SELECT wallet FROM wallet_session WHERE wallet = ${wallet.address}`
        expect(hashes.length).toBeGreaterThan(0)
        // idle beyond the timeout
        yield* sql`UPDATE wallet_session SET last_seen_at = now() - interval '31 minutes' WHERE wallet = ${wallet.address}`
        expect((yield* client.get("/v2/auth/session")).body.error).toBe("SESSION_REQUIRED")
        // past the absolute lifetime
        const again = makeClient(url)
        yield* signIn(again, wallet)
        expect((yield* again.get("/v2/auth/session")).status).toBe(200)
        yield* sql`UPDATE wallet_session SET expires_at = now() - interval '1 second' WHERE wallet = ${wallet.address}`
        expect((yield* again.get("/v2/auth/session")).body.error).toBe("SESSION_REQUIRED")
        // a session of the wallet listed and ended from another one
        const a = makeClient(url)
        const b = makeClient(url)
        yield* signIn(a, wallet)
        yield* signIn(b, wallet)
        const listed = (yield* a.get("/v2/auth/sessions")).body.data.sessions as Array<{ id: string; current: boolean }>
        expect(listed).toHaveLength(2)
        const otherSession = listed.find((session) => !session.current)!
        expect((yield* a.post(`/v2/auth/sessions/${otherSession.id}/end`)).status).toBe(200)
        expect((yield* b.get("/v2/auth/session")).status).toBe(401)
      }))

    it.effect("the owner wallet moves only with a sign-in of the new wallet; codes and keys follow it", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const owner = makeClient(url)
        const alice = newWallet()
        const bob = newWallet()
        yield* signIn(owner, alice)
        yield* owner.post("/v2/org/codes", { code: "moving" })
        const key = yield* owner.post("/v2/org/keys", { name: "terms", scopes: ["reporting"] })
        secrets.push(key.body.data.key)
        // bob signed in before: his organization is empty, so it makes way
        yield* signIn(makeClient(url), bob)

        // a plain sign-in input is not an ownership proof
        const plain = (yield* owner.post("/v2/auth/nonce")).body.data
        expect((yield* owner.post("/v2/org/owner", signInProof(bob, plain))).body.error).toBe("SIWS_NONCE_INVALID")
        const transfer = (yield* owner.post("/v2/org/owner/nonce")).body.data
        expect(transfer.statement).toContain(alice.address)
        const moved = yield* owner.post("/v2/org/owner", signInProof(bob, transfer))
        expect(moved.status, JSON.stringify(moved.body)).toBe(200)
        expect(moved.body.data.organization.ownerWallet).toBe(bob.address)
        expect((yield* fetchJson(`${url}/public/codes/moving`)).body.data.referrer).toBe(bob.address)
        yield* waitForStatus(
          Effect.map(fetchJson(`${url}/v2/partner/agreements`, { headers: withKey(key.body.data.key) }), (answer) => ({
            status: answer.body.data?.ownerWallet === bob.address ? 200 : 0
          })),
          200,
          20_000
        )
        // alice's sessions ended with her ownership
        expect((yield* owner.get("/v2/org")).status).toBe(401)
      }))

    it.effect("a key of an organization rotated from the CLI keeps its organization and scopes", () =>
      Effect.gen(function*() {
        const { client } = yield* setUp
        yield* signIn(client, newWallet())
        const issued = yield* client.post("/v2/org/keys", { name: "cli", scopes: ["reads", "stream"] })
        secrets.push(issued.body.data.key)
        const rotated = yield* Effect.flatMap(PartnerKeys, (keys) => keys.rotate(issued.body.data.apiKey.id)).pipe(Effect.provide(PartnerKeysLive))
        expect(rotated.record.scopes).toEqual(["reads", "stream"])
        const listed = (yield* client.get("/v2/org/keys")).body.data.keys.find((key: { id: string }) => key.id === rotated.record.id)
        expect(listed).toMatchObject({ scopes: ["reads", "stream"], active: true })
      }))

    it.effect("hostile and racing requests are 4xx or 200, never 500: deep JSON, a NUL in a code, rotate and revoke against Generate", () =>
      Effect.gen(function*() {
        const { client, url, wallet } = yield* setUp
        yield* signIn(client, wallet)
        const deep = "[".repeat(3_000) + "]".repeat(3_000)
        const verify = yield* fetchJson(`${url}/v2/auth/verify`, { method: "POST", body: deep, headers: { "content-type": "application/json", origin: ORIGIN } })
        expect(verify.status).toBe(400)
        expect(verify.body.error).toBe("INVALID_BODY")
        for (const action of ["enable", "disable"]) {
          const nul = yield* client.post(`/v2/org/codes/%00/${action}`)
          expect(nul.status).toBe(404)
          expect(nul.body.error).toBe("CODE_NOT_FOUND")
        }
        for (const name of ["\u0000", "key\u0000name"]) {
          const named = yield* client.post("/v2/org/keys", { name, scopes: ["reads"] })
          expect(named.status, JSON.stringify(named.body)).toBe(400)
          const generated = yield* client.post("/v2/org/keys/generate", { name })
          expect(generated.status, JSON.stringify(generated.body)).toBe(400)
        }
        // each round: keys rotated and revoked while Generate revokes them all (a deadlock was a 500)
        for (let round = 0; round < 5; round++) {
          const ids: Array<string> = []
          for (let i = 0; i < 4; i++) {
            const issued = yield* client.post("/v2/org/keys", { name: `race-${round}-${i}`, scopes: ["reads"] })
            secrets.push(issued.body.data.key)
            ids.push(issued.body.data.apiKey.id)
          }
          const answers = yield* Effect.all(
            [
              client.post("/v2/org/keys/generate", { name: `generated-${round}` }),
              ...ids.map((id, i) => client.post(`/v2/org/keys/${id}/${i % 2 === 0 ? "rotate" : "revoke"}`))
            ],
            { concurrency: "unbounded" }
          )
          for (const answer of answers) {
            if (answer.status === 200 && typeof answer.body.data.key === "string") secrets.push(answer.body.data.key)
            expect([200, 404], JSON.stringify(answer.body)).toContain(answer.status)
          }
        }
      }))

    it.effect("usage: each key's requests per UTC day, counted before the flush and not twice after it", () =>
      Effect.gen(function*() {
        const { url, client, wallet } = yield* setUp
        yield* signIn(client, wallet)
        const busy = yield* client.post("/v2/org/keys", { name: "busy", scopes: ["reads"] })
        const idle = yield* client.post("/v2/org/keys", { name: "idle", scopes: ["reads"] })
        secrets.push(busy.body.data.key, idle.body.data.key)
        for (let i = 0; i < 3; i++) expect((yield* fetchJson(`${url}/v2/vaults`, { headers: withKey(busy.body.data.key) })).status).toBe(200)

        const today = new Date().toISOString().slice(0, 10)
        const read = (query = "") =>
          Effect.map(client.get(`/v2/org/usage${query}`), (answer) => {
            expect(answer.status, JSON.stringify(answer.body)).toBe(200)
            return answer.body.data as { days: Array<string>; keys: Array<{ keyId: string; name: string; requests: Array<number> }> }
          })
        const before = yield* read()
        expect(before.days).toHaveLength(30)
        expect(before.days[29]).toBe(today)
        const row = (usage: typeof before, id: string) => usage.keys.find((key) => key.keyId === id)!
        expect(row(before, busy.body.data.apiKey.id)).toMatchObject({ name: "busy" })
        expect(row(before, busy.body.data.apiKey.id).requests.at(-1)).toBe(3)
        expect(row(before, busy.body.data.apiKey.id).requests.slice(0, 29).every((n) => n === 0)).toBe(true)
        expect(row(before, idle.body.data.apiKey.id).requests.every((n) => n === 0)).toBe(true)

        yield* Effect.sleep("1500 millis")
        const after = yield* read("?days=3")
        expect(after.days).toEqual(before.days.slice(27))
        expect(row(after, busy.body.data.apiKey.id).requests).toEqual([0, 0, 3])

        for (const days of ["0", "91", "x", "1.5"]) {
          const refused = yield* client.get(`/v2/org/usage?days=${days}`)
          expect(refused.status).toBe(400)
          expect(refused.body.success).toBe(false)
        }
        // a session is needed: a partner key is not one
        expect((yield* fetchJson(`${url}/v2/org/usage`, { headers: withKey(busy.body.data.key) })).status).toBe(401)
      }))

    it.effect("no plaintext key or session token in any log line", () =>
      Effect.sync(() => {
        expect(secrets.length).toBeGreaterThan(5)
        const all = logLines.join("\n")
        for (const secret of secrets) expect(all).not.toContain(secret)
      }))
  })
})

import zlib from "node:zlib"
import { describe, expect, it, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import { registryVaults } from "../../src/ntbundle/registry.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { getBytes } from "../support/httpBytes.ts"

const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const fixture = new VaultStateFixture({ slot: 1_000, blockTime: 1_800_000_000 })
for (const [i, vault] of registryVaults("mainnet").filter((vault) => vault.mainLayout).entries()) {
  fixture.vault(vault.address, { bundle: { assetAddress: USDC, bundleUnderlyingBalance: 1_000_000_000n * BigInt(i + 1), totalShares: 900_000_000n * BigInt(i + 1) } })
}

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(serverUrl, (url) => Effect.promise(() => getBytes(`${url}${path}`, headers)))

const decoders = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync } as const

describe("the gateway compresses what it serves when the client accepts it", () => {
  layer(gatewayForTest({ state: fixture.state, initial: liveStatus(1_000) }), { excludeTestServices: true })((it) => {
    it.effect("the offline docs page and /openapi.json: br and gzip decode to the very bytes sent uncompressed", () =>
      Effect.gen(function*() {
        const sizes: Record<string, number> = {}
        for (const path of ["/docs", "/openapi.json"]) {
          const plain = yield* get(path)
          expect(plain.status).toBe(200)
          expect(plain.headers["content-encoding"]).toBeUndefined()
          expect(plain.headers.vary).toBe("accept-encoding")
          sizes[`${path} identity`] = plain.body.length
          for (const coding of ["br", "gzip"] as const) {
            const coded = yield* get(path, { "accept-encoding": coding })
            expect(coded.headers["content-encoding"]).toBe(coding)
            expect(coded.headers.vary).toBe("accept-encoding")
            expect(coded.headers["cache-control"]).toBe(plain.headers["cache-control"])
            expect(decoders[coding](coded.body).equals(plain.body)).toBe(true)
            sizes[`${path} ${coding}`] = coded.body.length
            // made once: the second answer is the same bytes
            expect((yield* get(path, { "accept-encoding": coding })).body.equals(coded.body)).toBe(true)
          }
        }
        // the docs page is ~3.4 MB as it is; a third of that or less on the wire
        expect(sizes["/docs identity"]!).toBeGreaterThan(3_000_000)
        expect(sizes["/docs br"]!).toBeLessThan(sizes["/docs identity"]! / 3)
        expect(sizes["/docs gzip"]!).toBeLessThan(sizes["/docs identity"]! / 3)
        expect(sizes["/openapi.json br"]!).toBeLessThan(sizes["/openapi.json identity"]! / 5)
      }))

    it.effect("a browser's Accept-Encoding gets br on a hot read; the decoded body is the uncompressed one", () =>
      Effect.gen(function*() {
        const keyed = { "x-api-key": TEST_PARTNER_KEY }
        const plain = yield* get("/v2/vaults", keyed)
        expect(plain.status).toBe(200)
        expect(plain.body.length).toBeGreaterThan(10_000)
        const coded = yield* get("/v2/vaults", { ...keyed, "accept-encoding": "gzip, deflate, br, zstd" })
        expect(coded.headers["content-encoding"]).toBe("br")
        expect(coded.headers.vary).toBe("accept-encoding")
        expect(decoders.br(coded.body).equals(plain.body)).toBe(true)
        const refused = yield* get("/v2/vaults", { ...keyed, "accept-encoding": "br;q=0, gzip;q=0" })
        expect(refused.headers["content-encoding"]).toBeUndefined()
        expect(refused.body.equals(plain.body)).toBe(true)
      }))

    it.effect("fetch (undici) negotiates and decodes transparently", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const response = yield* Effect.promise(() => fetch(`${url}/openapi.json`))
        expect(["br", "gzip"]).toContain(response.headers.get("content-encoding"))
        const document = (yield* Effect.promise(() => response.json())) as { readonly openapi: string }
        expect(document.openapi).toMatch(/^3\.1/)
      }))
  })
})

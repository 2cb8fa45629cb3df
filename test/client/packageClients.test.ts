import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect, Either } from "effect"
// the package's own entry points, resolved through package.json "exports" as a partner's import would be
import { makeClient } from "vault-gateway/client"
import { createGatewayClient } from "vault-gateway/fetch-client"
import { registryVaults } from "../../src/ntbundle/registry.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const vaults = registryVaults("mainnet").filter((vault) => vault.mainLayout).map((vault) => vault.address).slice(0, 3)
const fixture = new VaultStateFixture({ slot: 2_000, blockTime: 1_800_000_000 })
for (const [i, vault] of vaults.entries()) {
  fixture.vault(vault, { bundle: { assetAddress: USDC, bundleUnderlyingBalance: 1_000_000_000n * BigInt(i + 1), totalShares: 900_000_000n } })
}
const ONE = vaults[0]!
const UNKNOWN = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9"

describe("the typed clients the package exports, against a running gateway", () => {
  layer(gatewayForTest({ state: fixture.state, initial: liveStatus(2_000) }), { excludeTestServices: true })((it) => {
    it.effect("vault-gateway/client: the HttpApiClient over the contract, with the partner key", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const client = yield* makeClient(url, { apiKey: TEST_PARTNER_KEY })
        const health = yield* client.system.health()
        expect(health.status).toBe("ok")
        const list = yield* client.vaults.list()
        expect(list.data.map((vault) => vault.bundleKey).sort()).toEqual([...vaults].sort())
        expect(list.asOf.slot).toBe(2_000)
        const one = yield* client.vaults.get({ path: { vaultAddress: ONE } })
        expect(one.data.bundleKey).toBe(ONE)
        // the contract's errors arrive as typed failures
        const unknown = yield* Effect.either(client.vaults.get({ path: { vaultAddress: UNKNOWN as Address } }))
        expect(Either.isLeft(unknown) && unknown.left._tag).toBe("NotFound")
        const anonymous = yield* makeClient(url)
        const refused = yield* Effect.either(anonymous.vaults.list())
        expect(Either.isLeft(refused) && refused.left._tag).toBe("Unauthorized")
      }).pipe(Effect.provide(FetchHttpClient.layer)))

    it.effect("vault-gateway/fetch-client: openapi-fetch typed by the generated types", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const client = createGatewayClient(url, { apiKey: TEST_PARTNER_KEY })
        const list = yield* Effect.promise(() => client.GET("/v2/vaults"))
        expect(list.response.status).toBe(200)
        expect(list.data?.success).toBe(true)
        expect(list.data?.data.map((vault) => vault.bundleKey).sort()).toEqual([...vaults].sort())
        const one = yield* Effect.promise(() => client.GET("/v2/vault/{vaultAddress}", { params: { path: { vaultAddress: ONE } } }))
        expect(one.data?.data.bundleKey).toBe(ONE)
        expect(one.data?.asOf.slot).toBe(2_000)
        const unknown = yield* Effect.promise(() => client.GET("/v2/vault/{vaultAddress}", { params: { path: { vaultAddress: UNKNOWN } } }))
        expect(unknown.response.status).toBe(404)
        expect(unknown.data).toBeUndefined()
        expect(unknown.error).toMatchObject({ success: false, error: "VAULT_NOT_FOUND" })
      }))

    it.effect("a plain Node process resolves vault-gateway/fetch-client through the package's exports", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const script = new URL("./fetchClientFromNode.ts", import.meta.url).pathname
        const { stdout } = yield* Effect.promise(() =>
          promisify(execFile)(process.execPath, ["--import", "tsx", script, url, TEST_PARTNER_KEY, ONE], { timeout: 60_000 })
        )
        expect(JSON.parse(stdout)).toMatchObject({
          status: 200,
          bundleKey: ONE,
          refusedStatus: 401,
          refusedError: { success: false, error: "UNAUTHORIZED" }
        })
      }))
  })
})

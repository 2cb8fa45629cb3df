// Run by test/client/packageClients.test.ts in a plain Node process (with tsx for TypeScript), so the
// package name resolves through package.json "exports" as it does for a partner:
//   node --import tsx test/client/fetchClientFromNode.ts <baseUrl> <apiKey> <vaultAddress>
import { createGatewayClient } from "vault-gateway/fetch-client"

const [baseUrl, apiKey, vaultAddress] = process.argv.slice(2) as [string, string, string]
const client = createGatewayClient(baseUrl, { apiKey })
const vault = await client.GET("/v2/vault/{vaultAddress}", { params: { path: { vaultAddress } } })
const refused = await createGatewayClient(baseUrl).GET("/v2/vaults")
process.stdout.write(JSON.stringify({
  status: vault.response.status,
  bundleKey: vault.data?.data.bundleKey,
  refusedStatus: refused.response.status,
  refusedError: refused.error
}))

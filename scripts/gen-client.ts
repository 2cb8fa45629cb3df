// Writes src/client/openapi.ts, the fetch client's types, from the contract's OpenAPI document.
//   npm run gen:client                            write it
//   npx tsx scripts/gen-client.ts --check         exit 1 when it is stale
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { renderOpenApiTypes } from "./openApiTypes.ts"

const typesPath = fileURLToPath(new URL("../src/client/openapi.ts", import.meta.url))
const current = await renderOpenApiTypes()
let written: string | undefined
try {
  written = readFileSync(typesPath, "utf8")
} catch {
  written = undefined
}

if (process.argv.includes("--check")) {
  if (current !== written) {
    console.error("src/client/openapi.ts is stale: run npm run gen:client")
    process.exit(1)
  }
} else if (current !== written) {
  writeFileSync(typesPath, current)
  console.log("src/client/openapi.ts updated")
}

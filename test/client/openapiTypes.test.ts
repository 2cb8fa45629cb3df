import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { renderOpenApiTypes } from "../../scripts/openApiTypes.ts"

describe("the fetch client's generated types", () => {
  it("are what openapi-typescript makes of the current /openapi.json (else: npm run gen:client)", async () => {
    const committed = readFileSync(new URL("../../src/client/openapi.ts", import.meta.url), "utf8")
    const regenerated = await renderOpenApiTypes()
    expect(regenerated.length).toBeGreaterThan(10_000)
    expect(committed === regenerated, "src/client/openapi.ts is stale: run npm run gen:client").toBe(true)
  })
})

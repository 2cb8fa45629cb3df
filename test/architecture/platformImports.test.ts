import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))

const sourcesUnder = (dir: string): Array<string> =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name))

// A value import of @effect/platform's index evaluates every module it re-exports, Swagger UI's
// and Scalar's inlined scripts among them (some 20 MB of heap in every server process).
describe("what the server imports of @effect/platform", () => {
  const files = ["src", "layers", "services"].flatMap(sourcesUnder)

  it("is each module by its own path, never the package's index", () => {
    const offenders = files.filter((file) => /^import (?!type )(\{[^}]*\}|\* as \w+) from "@effect\/platform"$/m.test(readFileSync(file, "utf8")))
    expect(files.length).toBeGreaterThan(100)
    expect(offenders.map((file) => file.slice(ROOT.length))).toEqual([])
  })

  it("loads Scalar's docs page only when the page is rendered", () => {
    const statically = files.filter((file) => /^import [^\n]*"@effect\/platform\/HttpApi(Scalar|Swagger)"/m.test(readFileSync(file, "utf8")))
    expect(statically.map((file) => file.slice(ROOT.length))).toEqual([])
    expect(readFileSync(join(ROOT, "src/api/docs.ts"), "utf8")).toContain(`import("@effect/platform/HttpApiScalar")`)
  })
})

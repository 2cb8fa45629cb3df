import { readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { buildSources } from "../../bin/buildSources.js"

const MIGRATIONS_SOURCE = fileURLToPath(new URL("../../layers/postgres/migrations.ts", import.meta.url))

describe("buildSources (what bin/vault-gateway.js runs)", () => {
  it("builds the CLI once into a directory named by its content, also when two starts build at once", async () => {
    const [first, second] = await Promise.all([buildSources("src/cli.ts"), buildSources("src/cli.ts")]) as [string, string]
    expect(first).toBe(second)
    expect(first).toMatch(/\/node_modules\/\.cache\/vault-gateway\/[0-9a-f]{16}\/cli\.js$/)
    const dir = dirname(fileURLToPath(first))
    expect(readdirSync(dirname(dir)).filter((name) => name.startsWith(".staging-"))).toEqual([])
    // the command modules stay separate chunks, loaded when their command runs
    expect(readdirSync(dir).filter((name) => name.endsWith(".js")).length).toBeGreaterThan(5)
  }, 60_000)

  it("keeps each module's own import.meta.url, so files next to the sources are found", async () => {
    const dir = dirname(fileURLToPath(await buildSources("src/cli.ts")))
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".js"))
    const texts = files.map((name) => readFileSync(join(dir, name), "utf8"))
    expect(texts.some((text) => text.includes(JSON.stringify(pathToFileURL(MIGRATIONS_SOURCE).href)))).toBe(true)
    expect(texts.filter((text) => /\bimport\.meta\.url\b/.test(text))).toEqual([])
  }, 60_000)

  it("writes source maps that name the TypeScript sources (stack traces point at them)", async () => {
    const url = await buildSources("src/cli.ts")
    const map = JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, "utf8")) as { sources: Array<string> }
    expect(map.sources.some((source) => source.endsWith("src/cli.ts"))).toBe(true)
  }, 60_000)
})

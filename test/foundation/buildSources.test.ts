import { createHash } from "node:crypto"
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { buildSources } from "../../bin/buildSources.js"

const MIGRATIONS_SOURCE = fileURLToPath(new URL("../../layers/postgres/migrations.ts", import.meta.url))
const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const CACHE = join(ROOT, "node_modules", ".cache", "vault-gateway")
/** Where buildSources records the last build of an entry. */
const lastBuildRecord = (entry: string) => join(CACHE, `last-${createHash("sha256").update(entry).digest("hex").slice(0, 16)}.json`)

describe("buildSources (what bin/vault-gateway.js runs)", () => {
  it("builds the CLI once into a directory named by its content, also when two starts build at once", async () => {
    rmSync(lastBuildRecord("src/cli.ts"), { force: true }) // both build, not reuse
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

  it("reuses the last build while its sources are unchanged, and builds again when one of them changes", async () => {
    const dir = join(ROOT, "src", `.buildSourcesTest-${process.pid}`)
    const entry = `src/.buildSourcesTest-${process.pid}/entry.ts`
    const record = lastBuildRecord(entry)
    mkdirSync(dir, { recursive: true })
    try {
      writeFileSync(join(dir, "entry.ts"), `import { word } from "./word.ts"\nexport const said: string = word\n`)
      writeFileSync(join(dir, "word.ts"), `export const word = "first"\n`)
      const first = await buildSources(entry)
      expect(((await import(first)) as { said: string }).said).toBe("first")
      const recorded = statSync(record).ino

      // unchanged: the same build, and its record is not written again
      expect(await buildSources(entry)).toBe(first)
      expect(statSync(record).ino).toBe(recorded)

      // an imported source changed: a new build with it
      writeFileSync(join(dir, "word.ts"), `export const word = "second"\n`)
      const second = await buildSources(entry)
      expect(second).not.toBe(first)
      expect(((await import(second)) as { said: string }).said).toBe("second")
    } finally {
      rmSync(dir, { recursive: true, force: true })
      rmSync(record, { force: true })
    }
  }, 60_000)
})

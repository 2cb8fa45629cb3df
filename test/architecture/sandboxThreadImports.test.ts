import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))

/** Every package import in the module graph of `entry` (a path from the project's root), with who imports it. */
const packageImports = async (entry: string) => {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    format: "esm",
    platform: "node",
    packages: "external",
    write: false,
    metafile: true,
    logLevel: "silent",
    outdir: "out"
  })
  return Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
    input.imports.filter((imported) => imported.external && !imported.path.startsWith("node:")).map((imported) => ({ file, path: imported.path }))
  )
}

// The sandbox chain's thread holds a copy of every module it loads. Effect's index (every module of
// the package) cost that thread about 35 MB of a first start's RSS, so the thread loads no Effect
// runtime: its modules use Effect's data types by their own paths only.
describe("what the sandbox chain's thread loads", () => {
  it("is no Effect runtime: effect/Either and effect/Data only, never the package's index", async () => {
    const imports = await packageImports("src/commands/sandboxChainWorker.ts")
    expect(imports.some(({ path }) => path === "@solana/kit")).toBe(true)
    const effect = imports.filter(({ path }) => path === "effect" || path.startsWith("effect/") || path.startsWith("@effect/"))
    expect(effect.length).toBeGreaterThan(0)
    expect(effect.filter(({ path }) => path !== "effect/Either" && path !== "effect/Data")).toEqual([])
  })
})

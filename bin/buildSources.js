// Compiles the TypeScript sources into plain ESM once per start, with esbuild, and says where.
//
// Why not tsx's loader, which the tests and benchmarks still use: measured on a first `serve`, it held
// about 110 MB more RSS (its loader thread, and every module's source kept with an inline source
// map) and spent seconds of CPU in its module hooks and in the `__name` calls its keepNames transform
// adds to every closure. A bundle costs about half a second to build and nothing after.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build } from "esbuild"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const CACHE = join(ROOT, "node_modules", ".cache", "vault-gateway")
const STALE_MS = 7 * 24 * 3_600_000

// A bundle moves every module to one place, so `import.meta.url` would name the bundle: each source
// keeps its own URL instead (migrations, web sources and workers are found next to it).
const IMPORT_META_URL = /\bimport\.meta\.url\b/g
const ownModuleUrl = {
  name: "own-module-url",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.[jt]s$/ }, (args) => {
      const text = readFileSync(args.path, "utf8")
      const url = JSON.stringify(pathToFileURL(args.path).href)
      const loader = args.path.endsWith(".ts") ? "ts" : "js"
      return { contents: text.replace(IMPORT_META_URL, url), loader }
    })
  }
}

/** Removes the builds of other source versions nobody started for a week. */
const pruneOld = (keep) => {
  for (const name of readdirSync(CACHE)) {
    const dir = join(CACHE, name)
    if (name === keep) continue
    try {
      if (Date.now() - statSync(dir).mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true })
    } catch {
      // another start removed it first
    }
  }
}

/**
 * Builds `entry` (and the chunks of what it imports lazily) into a directory named by the output's
 * hash under node_modules/.cache, so that node_modules resolves as from the sources; instances that
 * start together write the same files once. Returns the entry's URL in the build.
 */
export const buildSources = async (entry) => {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    outbase: join(ROOT, "src"),
    outdir: join(CACHE, "out"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    sourcesContent: false,
    plugins: [ownModuleUrl],
    write: false,
    logLevel: "error"
  })
  const hash = createHash("sha256")
  for (const file of result.outputFiles) hash.update(file.path).update(file.contents)
  const name = hash.digest("hex").slice(0, 16)
  const dir = join(CACHE, name)
  if (!existsSync(dir)) {
    const staging = join(CACHE, `.staging-${process.pid}-${Date.now()}`)
    for (const file of result.outputFiles) {
      const target = join(staging, relative(join(CACHE, "out"), file.path))
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, file.contents)
    }
    try {
      renameSync(staging, dir)
    } catch {
      // an instance starting at the same time got there first, with the same files
      rmSync(staging, { recursive: true, force: true })
    }
  }
  const now = new Date()
  utimesSync(dir, now, now)
  pruneOld(name)
  return pathToFileURL(join(dir, entry.replace(/^src\//, "").replace(/\.ts$/, ".js"))).href
}

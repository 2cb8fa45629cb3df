// Compiles the TypeScript sources into plain ESM once per start, with esbuild, and says where.
//
// Why not tsx's loader, which the tests and benchmarks still use: measured on a first `serve`, it held
// about 110 MB more RSS (its loader thread, and every module's source kept with an inline source
// map) and spent seconds of CPU in its module hooks and in the `__name` calls its keepNames transform
// adds to every closure. A bundle costs about half a second to build and nothing after; a start
// whose sources are those of the last build for its entry reuses that build (checking them takes
// some 20 ms).
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const CACHE = join(ROOT, "node_modules", ".cache", "vault-gateway")
const STALE_MS = 7 * 24 * 3_600_000
// What else decides a build's output: this file (its options) and the files esbuild reads besides the sources.
const BUILD_SETTINGS = [fileURLToPath(import.meta.url), join(ROOT, "tsconfig.json"), join(ROOT, "package.json"), join(ROOT, "node_modules", "esbuild", "package.json")]

// A bundle moves every module to one place, so `import.meta.url` would name the bundle: each source
// keeps its own URL instead (migrations, web sources and workers are found next to it).
// It also hashes each source as read (`hashes`: path -> sha256), so the build's record says what it
// was built from even if a file changes while it builds.
const IMPORT_META_URL = /\bimport\.meta\.url\b/g
const ownModuleUrl = (hashes) => ({
  name: "own-module-url",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.[jt]s$/ }, (args) => {
      const bytes = readFileSync(args.path)
      hashes.set(args.path, sha256(bytes))
      const text = bytes.toString("utf8")
      const url = JSON.stringify(pathToFileURL(args.path).href)
      const loader = args.path.endsWith(".ts") ? "ts" : "js"
      return { contents: text.replace(IMPORT_META_URL, url), loader }
    })
  }
})

/** Removes the builds of other source versions nobody started for a week. */
const pruneOld = (keep) => {
  for (const name of readdirSync(CACHE)) {
    const dir = join(CACHE, name)
    if (name === keep || name.startsWith("last-")) continue
    try {
      if (Date.now() - statSync(dir).mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true })
    } catch {
      // another start removed it first
    }
  }
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex")

/** Each file's content hash, or null when one cannot be read. */
const hashesOf = (paths) => {
  try {
    return paths.map((path) => sha256(readFileSync(path)))
  } catch {
    return null
  }
}

/** Where the last build of `entry` is recorded: its directory and the hashes of what it was built from. */
const lastBuildRecord = (entry) => join(CACHE, `last-${sha256(entry).slice(0, 16)}.json`)

/**
 * The last build of `entry`, when every file it was built from is unchanged. A source that is new
 * since can only enter a build through an import added to one of those files, which changes it.
 */
const unchangedBuild = (entry) => {
  try {
    const record = JSON.parse(readFileSync(lastBuildRecord(entry), "utf8"))
    // the build names its sources by absolute URL: a project moved elsewhere builds again
    if (record.root !== ROOT || !existsSync(join(CACHE, record.name))) return null
    const hashes = hashesOf(record.inputs.map(([path]) => join(ROOT, path)))
    return hashes !== null && hashes.every((hash, i) => hash === record.inputs[i][1]) ? record.name : null
  } catch {
    return null
  }
}

/** Records `inputs` ([absolute path, hash]) as what build `name` of `entry` was made from. */
const recordBuild = (entry, name, inputs) => {
  const record = { root: ROOT, name, inputs: inputs.map(([path, hash]) => [relative(ROOT, path), hash]) }
  const staging = `${lastBuildRecord(entry)}.${process.pid}`
  writeFileSync(staging, JSON.stringify(record))
  renameSync(staging, lastBuildRecord(entry))
}

/** Builds `entry` into CACHE/<hash of the output> (written once, whoever builds it at the same time); returns that name. */
const buildInto = async (entry) => {
  const { build } = await import("esbuild")
  const settings = hashesOf(BUILD_SETTINGS)
  const sourceHashes = new Map()
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
    plugins: [ownModuleUrl(sourceHashes)],
    metafile: true,
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
  // metafile inputs are relative to the working directory; any the plugin did not read (JSON) are hashed now
  const inputs = Object.keys(result.metafile.inputs).map((input) => join(process.cwd(), input))
  const inputHashes = inputs.map((path) => sourceHashes.get(path) ?? hashesOf([path])?.[0])
  if (settings !== null && inputHashes.every((hash) => hash !== undefined)) {
    recordBuild(entry, name, [...BUILD_SETTINGS.map((path, i) => [path, settings[i]]), ...inputs.map((path, i) => [path, inputHashes[i]])])
  }
  return name
}

/**
 * Builds `entry` (and the chunks of what it imports lazily) into a directory named by the output's
 * hash under node_modules/.cache, so that node_modules resolves as from the sources; instances that
 * start together write the same files once. The last build is reused while everything it was built
 * from is unchanged. Returns the entry's URL in the build.
 */
export const buildSources = async (entry) => {
  mkdirSync(CACHE, { recursive: true })
  const name = unchangedBuild(entry) ?? (await buildInto(entry))
  const dir = join(CACHE, name)
  const now = new Date()
  utimesSync(dir, now, now)
  pruneOld(name)
  return pathToFileURL(join(dir, entry.replace(/^src\//, "").replace(/\.ts$/, ".js"))).href
}

import { createRequire } from "node:module"
import { dirname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Worker, type WorkerOptions } from "node:worker_threads"

const ROOT = fileURLToPath(new URL("..", import.meta.url))

/**
 * A worker thread running a TypeScript module. Worker threads do not inherit the TypeScript
 * loader, so each starts from a stub that registers tsx's ESM hooks (its ESM API, by file URL)
 * and then imports the module.
 */
export const startTsWorker = (moduleUrl: URL, options: Omit<WorkerOptions, "eval"> = {}): Worker => {
  const tsxPackage = createRequire(import.meta.url).resolve("tsx/package.json")
  const tsxApi = pathToFileURL(join(dirname(tsxPackage), "dist/esm/api/index.mjs")).href
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl.href)}) })`
  return new Worker(bootstrap, { ...options, eval: true })
}

/**
 * A worker thread running a module of `src` compiled the way `bin/vault-gateway.js` compiles the
 * server (an esbuild bundle, reused while its sources are unchanged), for workers of the server
 * itself: tsx's loader would cost the thread its memory and its start (see bin/buildSources.js).
 */
export const startBuiltWorker = (moduleUrl: URL, options: Omit<WorkerOptions, "eval"> = {}): Worker => {
  const entry = relative(ROOT, fileURLToPath(moduleUrl)).split("\\").join("/")
  const builder = new URL("../bin/buildSources.js", import.meta.url).href
  const bootstrap = `import(${JSON.stringify(builder)}).then(({ buildSources }) => buildSources(${JSON.stringify(entry)})).then((url) => import(url))`
  return new Worker(bootstrap, { ...options, eval: true })
}

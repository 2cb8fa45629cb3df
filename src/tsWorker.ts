import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { Worker, type WorkerOptions } from "node:worker_threads"

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

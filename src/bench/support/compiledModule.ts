import path from "node:path"
import { fileURLToPath } from "node:url"
import { buildSources } from "../../../bin/buildSources.js"

const ROOT = fileURLToPath(new URL("../../..", import.meta.url))

/**
 * The node arguments that run a benchmark module in a child process as `npm start` runs the
 * gateway: compiled by bin/buildSources.js, not through tsx's loader (BENCH_TSX=1: through tsx).
 * The module then sees its own source URL as `import.meta.url`, not the path it was started from.
 */
export const benchModuleArgs = async (moduleUrl: string): Promise<Array<string>> =>
  process.env.BENCH_TSX === "1"
    ? ["--import", "tsx", fileURLToPath(moduleUrl)]
    : [fileURLToPath(await buildSources(path.relative(ROOT, fileURLToPath(moduleUrl))))]

import path from "node:path"
import { fileURLToPath } from "node:url"
import { buildSources } from "../../../bin/buildSources.js"

const ROOT = fileURLToPath(new URL("../../..", import.meta.url))

/**
 * The path of a benchmark module compiled as `npm start` compiles the gateway (bin/buildSources.js),
 * so that its server child runs the code as production runs it rather than through tsx's loader.
 */
export const compiledModule = async (moduleUrl: string): Promise<string> =>
  fileURLToPath(await buildSources(path.relative(ROOT, fileURLToPath(moduleUrl))))

import path from "node:path"
import { fileURLToPath } from "node:url"
import * as esbuild from "esbuild"
import { Effect, Layer } from "effect"
import { type WebAsset, WebBundleError, WebBundles } from "../../services/WebBundles.ts"
import { ASSETS_PATH, WEB_PAGES } from "../../src/web/pages.ts"

const WEB_ROOT = fileURLToPath(new URL("../../src/web/", import.meta.url))

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8"
}

const build = Effect.tryPromise({
  try: () =>
    esbuild.build({
      absWorkingDir: WEB_ROOT,
      entryPoints: Object.fromEntries(WEB_PAGES.map((page) => [page.name, path.join(WEB_ROOT, page.entry)])),
      tsconfig: path.join(WEB_ROOT, "tsconfig.json"),
      bundle: true,
      format: "esm",
      platform: "browser",
      target: ["chrome111", "firefox111", "safari16"],
      minify: true,
      legalComments: "none",
      entryNames: "[name]-[hash]",
      outdir: "/out",
      write: false,
      metafile: true,
      logLevel: "silent"
    }),
  catch: (error) => new WebBundleError({ message: `the web pages could not be bundled: ${error instanceof Error ? error.message : String(error)}` })
}).pipe(
  Effect.map((result) => {
    const assets: Array<WebAsset> = result.outputFiles.map((file) => ({
      path: `${ASSETS_PATH}/${path.basename(file.path)}`,
      contentType: CONTENT_TYPES[path.extname(file.path)] ?? "application/octet-stream",
      body: file.contents
    }))
    const entries = new Map<string, { script: string; style: string | null }>()
    for (const [output, meta] of Object.entries(result.metafile.outputs)) {
      const page = WEB_PAGES.find((candidate) => meta.entryPoint !== undefined && path.resolve(WEB_ROOT, meta.entryPoint) === path.join(WEB_ROOT, candidate.entry))
      if (page === undefined) continue
      entries.set(page.name, {
        script: `${ASSETS_PATH}/${path.basename(output)}`,
        style: meta.cssBundle === undefined ? null : `${ASSETS_PATH}/${path.basename(meta.cssBundle)}`
      })
    }
    return { assets, entries }
  }),
  Effect.withSpan("WebBundles.build")
)

/**
 * esbuild bundles `src/web` in memory the first time a page or asset is asked for (a server that
 * never serves a page never pays for it), then keeps the result: file names carry a content hash,
 * so a new build after a restart has new names.
 */
export const WebBundlesLive = Layer.effect(
  WebBundles,
  Effect.map(Effect.cached(build), (bundle) => ({ bundle }))
)

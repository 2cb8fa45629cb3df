import { Context, Data, type Effect } from "effect"

/** A built file of the web pages, served under its hashed name. */
export interface WebAsset {
  /** `/assets/dashboard-5CXKQ2ZK.js`. */
  readonly path: string
  readonly contentType: string
  readonly body: Uint8Array
}

export interface WebBundle {
  readonly assets: ReadonlyArray<WebAsset>
  /** Per page name (`src/web/pages.ts`), the paths of its script and stylesheet. */
  readonly entries: ReadonlyMap<string, { readonly script: string; readonly style: string | null }>
}

export class WebBundleError extends Data.TaggedError("WebBundleError")<{ readonly message: string }> {}

/** The web pages' browser code, bundled once (in memory) when first asked for. */
export class WebBundles extends Context.Tag("WebBundles")<WebBundles, { readonly bundle: Effect.Effect<WebBundle, WebBundleError> }>() {}

import { Effect, Layer, Runtime } from "effect"
import type { HttpResponse } from "uwebsockets"
import { InternalError, NotFound } from "../../src/api/errors.ts"
import { ASSETS_PATH, pageHtml, WEB_PAGES } from "../../src/web/pages.ts"
import { type WebBundle, WebBundles } from "../../services/WebBundles.ts"
import { type FixedResponder, fixedResponder, methodNotAllowed, writeError } from "./fixedRoutes.ts"
import { HttpServer } from "./HttpServer.ts"
import { requestIdFor } from "./requestId.ts"
import { writeWhenSettled } from "./respond.ts"
import { htmlSecurityHeaders, PAGE_CSP } from "./securityHeaders.ts"

/** The paths this layer serves besides the contract (pages, not API operations). */
export const WEB_PATHS: ReadonlyArray<string> = [...WEB_PAGES.map((page) => page.path), `${ASSETS_PATH}/:file`]

/** Hashed names never change content: browsers keep them a year without asking again. */
const IMMUTABLE = "public, max-age=31536000, immutable"

interface Served {
  readonly pages: ReadonlyMap<string, FixedResponder>
  readonly assets: ReadonlyMap<string, FixedResponder>
}

const toServed = (bundle: WebBundle): Served => {
  const pages = new Map<string, FixedResponder>()
  for (const page of WEB_PAGES) {
    const files = bundle.entries.get(page.name)
    if (files === undefined) throw new Error(`the bundle has no entry for the page ${page.name}`)
    pages.set(page.path, fixedResponder("text/html; charset=utf-8", Buffer.from(pageHtml(page, files)), "no-cache", htmlSecurityHeaders(PAGE_CSP)))
  }
  const assets = new Map(bundle.assets.map((asset) => [asset.path.slice(ASSETS_PATH.length + 1), fixedResponder(asset.contentType, asset.body, IMMUTABLE)]))
  return { pages, assets }
}


/**
 * The web pages (`/dashboard`, `/ops`) and their bundles under `/assets/<name>-<hash>.<ext>`. The
 * bundle is made on the first request (which waits for it); pages answer `no-cache` with a strict
 * Content-Security-Policy, assets are immutable. Both are compressed once per coding.
 */
export const WebPagesRoutesLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const server = yield* HttpServer
    const bundles = yield* WebBundles
    const runtime = yield* Effect.runtime<never>()
    let served: Served | null | undefined
    let building: Promise<Served | null> | undefined
    const ready = (): Promise<Served | null> =>
      building ??= Runtime.runPromise(runtime)(
        bundles.bundle.pipe(
          Effect.flatMap((bundle) => Effect.try(() => toServed(bundle))),
          Effect.tap((done) => Effect.sync(() => served = done)),
          Effect.tapErrorCause((cause) => Effect.logError("the web pages cannot be served", cause)),
          Effect.orElseSucceed(() => served = null)
        )
      )

    const answer = (res: HttpResponse, requestId: string, acceptEncoding: string, pick: (s: Served) => FixedResponder | undefined, what: string) =>
      (now: Served | null | undefined) => {
        if (now === null || now === undefined) {
          return writeError(res, requestId, new InternalError({ code: "INTERNAL", message: "the web pages could not be built; see the server log", requestId }))
        }
        const respond = pick(now)
        if (respond === undefined) return writeError(res, requestId, new NotFound({ code: "NOT_FOUND", message: `no asset ${what}` }))
        respond(res, requestId, acceptEncoding)
      }

    const serve = (res: HttpResponse, requestId: string, acceptEncoding: string, pick: (s: Served) => FixedResponder | undefined, what: string) => {
      const write = answer(res, requestId, acceptEncoding, pick, what)
      if (served !== undefined) return write(served)
      writeWhenSettled(res, ready(), (now) => write(now ?? null))
    }

    for (const page of WEB_PAGES) {
      server.route("GET", page.path, (res, req) =>
        serve(res, requestIdFor(req.getHeader("x-request-id")), req.getHeader("accept-encoding"), (s) => s.pages.get(page.path), page.path))
      server.route("ANY", page.path, methodNotAllowed(["GET"]))
    }
    server.route("GET", WEB_PATHS.at(-1)!, (res, req) => {
      const file = req.getParameter(0) ?? ""
      serve(res, requestIdFor(req.getHeader("x-request-id")), req.getHeader("accept-encoding"), (s) => s.assets.get(file), file.slice(0, 100))
    })
  }).pipe(Effect.withSpan("WebPagesRoutes.register"))
)

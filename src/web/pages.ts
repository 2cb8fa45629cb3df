/**
 * The web pages as the server sees them: where each is served, its bundle's entry point (relative
 * to this folder) and its HTML shell. The rest of `src/web` is browser code, bundled by esbuild and
 * never imported by the server.
 */
export interface WebPage {
  readonly name: string
  readonly path: string
  readonly title: string
  /** Entry module, relative to `src/web/`. */
  readonly entry: string
}

export const WEB_PAGES: ReadonlyArray<WebPage> = [
  { name: "dashboard", path: "/dashboard", title: "Builder dashboard · vault-gateway", entry: "dashboard/main.ts" },
  { name: "ops", path: "/ops", title: "Gateway status · vault-gateway", entry: "ops/main.ts" }
]

/** Where the bundles are served: hashed file names under this path, cached for a year. */
export const ASSETS_PATH = "/assets"

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A page: no inline script or style (the Content-Security-Policy allows neither), its bundle deferred. */
export const pageHtml = (page: WebPage, files: { readonly script: string; readonly style: string | null }): string =>
  [
    "<!doctype html>",
    `<html lang="en">`,
    "<head>",
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta name="color-scheme" content="light dark">`,
    `<title>${escapeHtml(page.title)}</title>`,
    files.style === null ? "" : `<link rel="stylesheet" href="${escapeHtml(files.style)}">`,
    `<script type="module" src="${escapeHtml(files.script)}"></script>`,
    "</head>",
    `<body><noscript>This page needs JavaScript.</noscript><main id="app"></main></body>`,
    "</html>",
    ""
  ].join("\n")

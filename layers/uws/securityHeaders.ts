import { createHash } from "node:crypto"

/**
 * Security headers. `X-Content-Type-Options: nosniff` goes on every answer (written by
 * `writeResponse` as part of its one joined header string, so it costs no native call); HTML pages
 * add a Content-Security-Policy that forbids framing, a Referrer-Policy and X-Frame-Options for
 * browsers older than `frame-ancestors`.
 */
export const NOSNIFF = "nosniff"

/** The web pages' policy: scripts and styles from this origin only (hashed file names), no inline code. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // wallet icons are data: URIs (Wallet Standard)
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

export const htmlSecurityHeaders = (contentSecurityPolicy: string): ReadonlyArray<readonly [string, string]> => [
  ["content-security-policy", contentSecurityPolicy],
  ["referrer-policy", "no-referrer"],
  ["x-frame-options", "DENY"]
]

const INLINE_SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/g

/** `'sha256-…'` sources of the page's inline classic scripts (data blocks such as `type="application/json"` run nothing). */
export const inlineScriptHashes = (html: string): ReadonlyArray<string> => {
  const hashes: Array<string> = []
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? ""
    if (/\ssrc\s*=/.test(attributes) || /type\s*=\s*"application\/json"/.test(attributes)) continue
    hashes.push(`'sha256-${createHash("sha256").update(match[2]!).digest("base64")}'`)
  }
  return hashes
}

/**
 * The docs page's policy: its inlined scripts by hash. Scalar's reference injects its stylesheet at
 * run time and styles its elements inline, so styles may be inline here (never scripts).
 */
export const docsCsp = (html: string): string =>
  [
    "default-src 'none'",
    // Scalar parses the document with WebAssembly: compiling it is allowed, eval is not
    `script-src ${inlineScriptHashes(html).join(" ")} 'wasm-unsafe-eval'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

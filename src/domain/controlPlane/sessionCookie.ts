import { createHash, randomBytes } from "node:crypto"

/**
 * The wallet session cookie. Its value is 256 random bits (base64url); only the SHA-256 of it is
 * stored. `HttpOnly` (no script reads it), `SameSite=Strict` (the dashboard is served by the
 * gateway itself, so no cross-site navigation needs the session), `Path=/`, and on an https origin
 * `Secure` with the `__Host-` prefix (no Domain attribute: only this host gets it).
 */
export interface SessionCookieSettings {
  readonly secure: boolean
}

export const cookieName = (settings: SessionCookieSettings) => (settings.secure ? "__Host-vg_session" : "vg_session")

export const newSessionToken = (): string => randomBytes(32).toString("base64url")

export const hashSessionToken = (token: string): string => createHash("sha256").update(token).digest("hex")

const attributes = (settings: SessionCookieSettings) => `; Path=/; HttpOnly; SameSite=Strict${settings.secure ? "; Secure" : ""}`

export const sessionCookie = (settings: SessionCookieSettings, token: string, maxAgeSeconds: number) =>
  `${cookieName(settings)}=${token}; Max-Age=${maxAgeSeconds}${attributes(settings)}`

export const clearedSessionCookie = (settings: SessionCookieSettings) => `${cookieName(settings)}=; Max-Age=0${attributes(settings)}`

const TOKEN = /^[A-Za-z0-9_-]{43}$/

/** The session token from a `Cookie` header, if it carries a well-formed one. */
export const sessionTokenOf = (settings: SessionCookieSettings, cookieHeader: string | undefined): string | undefined => {
  if (cookieHeader === undefined) return undefined
  const name = cookieName(settings)
  for (const part of cookieHeader.split(/;\s*|,\s*/)) {
    const eq = part.indexOf("=")
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue
    const value = part.slice(eq + 1).trim()
    if (TOKEN.test(value)) return value
  }
  return undefined
}

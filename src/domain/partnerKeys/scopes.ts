/**
 * What a partner key may do. A key of an organization carries the scopes it was issued with; keys
 * from the CLI or the sandbox seed carry all of them. Control-plane routes are never reachable with
 * a key, whatever its scopes (they take a wallet session).
 */
export const KEY_SCOPES = ["reads", "reporting", "builds", "stream"] as const
export type KeyScope = (typeof KEY_SCOPES)[number]

export const isKeyScope = (value: string): value is KeyScope => (KEY_SCOPES as ReadonlyArray<string>).includes(value)

const REPORTING = /^\/v2\/(referrer|partner)(\/|$)/
const BUILDS = /^\/v2\/vault\/[^/]+\/tx\//
const LEGACY_BUILDS = /^\/api\/v1\/vault\/[^/]+\/(deposit|withdraw)-instructions$/

/**
 * The scope a keyed request needs, from its path: builder reporting and partner terms need
 * `reporting`, the transaction builders `builds`, the WebSocket stream `stream`, every other read
 * `reads`.
 */
export const scopeForPath = (path: string): KeyScope => {
  if (REPORTING.test(path)) return "reporting"
  if (BUILDS.test(path) || LEGACY_BUILDS.test(path)) return "builds"
  if (path === "/v2/stream") return "stream"
  return "reads"
}

import type { ProjectionState } from "../domain/projection/state.ts"
import type { PreEncoded } from "./preEncoded.ts"

/** Entries kept per projection version before the cache starts over (bounds memory under key scans). */
const MAX_ENTRIES = 10_000

/**
 * Encoded bodies by key (a vault, a wallet...), valid while the projection's version and chain
 * position stay the same: each body is encoded at most once per version, on first request.
 */
export class VersionedBodies {
  #version = -1
  #asOf: unknown = undefined
  readonly #bodies = new Map<string, PreEncoded>()

  get(state: ProjectionState, key: string, build: () => PreEncoded): PreEncoded {
    if (state.version !== this.#version || state.asOf !== this.#asOf || this.#bodies.size >= MAX_ENTRIES) {
      this.#bodies.clear()
      this.#version = state.version
      this.#asOf = state.asOf
    }
    let body = this.#bodies.get(key)
    if (body === undefined) this.#bodies.set(key, (body = build()))
    return body
  }
}

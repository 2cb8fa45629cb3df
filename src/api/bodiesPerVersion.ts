import type { Schema } from "effect"
import type { ProjectionState } from "../domain/projection/state.ts"
import { PreEncoded } from "./preEncoded.ts"

/** Bodies kept per projection version before the map starts over (bounds memory under key scans). */
const MAX_BODIES = 10_000

/**
 * A read's encoded bodies by key (a vault, a wallet...), each built from `input` and encoded at most
 * once while the projection's version and chain position stay the same. The transport's compressed
 * copies live on each body (`PreEncoded.coded`), so they too are made once per version and coding,
 * and go with the bodies when the version moves on.
 */
export class BodiesPerVersion<A, E, In = void> {
  #version = -1
  #asOf: unknown = undefined
  readonly #bodies = new Map<string, PreEncoded>()
  readonly #encode: (value: A) => PreEncoded
  readonly #build: (state: ProjectionState, input: In) => A

  constructor(schema: Schema.Schema<A, E>, build: (state: ProjectionState, input: In) => NoInfer<A>) {
    this.#encode = PreEncoded.encoder(schema)
    this.#build = build
  }

  get(state: ProjectionState, key: string, input: In): PreEncoded {
    if (state.version !== this.#version || state.asOf !== this.#asOf || this.#bodies.size >= MAX_BODIES) {
      this.#bodies.clear()
      this.#version = state.version
      this.#asOf = state.asOf
    }
    let body = this.#bodies.get(key)
    if (body === undefined) this.#bodies.set(key, body = this.#encode(this.#build(state, input)))
    return body
  }
}

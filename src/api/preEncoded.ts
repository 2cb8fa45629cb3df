import { Schema } from "effect"

const utf8 = new TextEncoder()

/**
 * A success body a handler has already encoded, sent as is: reads that answer from the projection
 * encode once per projection version and return the same string until the next change. The body
 * must be what the endpoint's success schema encodes to; `cachedBy` guarantees it.
 */
export class PreEncoded {
  #bytes: Uint8Array | undefined
  #sent = false

  constructor(readonly body: string) {}

  /**
   * What a transport sends. A string is converted on every write (a two-byte string, which
   * `JSON.stringify` returns when any input string was stored as one, at several times the cost),
   * so a body sent again (cached per projection version) goes out as UTF-8 bytes made once; a
   * one-off body (a build's answer) is sent as its string, without that extra copy.
   */
  get wire(): string | Uint8Array {
    if (this.#bytes !== undefined) return this.#bytes
    if (!this.#sent) {
      this.#sent = true
      return this.body
    }
    return this.#bytes = utf8.encode(this.body)
  }

  /**
   * `(key) => PreEncoded` that encodes `project(key)` with `schema` and reuses the result while the
   * key stays the same (`===`): pass the projection version, or the state object, as the key.
   */
  static cachedBy<K, A, I>(schema: Schema.Schema<A, I>, project: (key: K) => NoInfer<A>): (key: K) => PreEncoded {
    const encode = Schema.encodeSync(schema)
    let lastKey: { readonly value: K } | undefined
    let lastBody = new PreEncoded("")
    return (key) => {
      if (lastKey === undefined || lastKey.value !== key) {
        lastBody = new PreEncoded(JSON.stringify(encode(project(key))))
        lastKey = { value: key }
      }
      return lastBody
    }
  }

  /** A body that never changes, encoded once. */
  static constant<A, I>(schema: Schema.Schema<A, I>, value: NoInfer<A>): PreEncoded {
    return new PreEncoded(JSON.stringify(Schema.encodeSync(schema)(value)))
  }
}

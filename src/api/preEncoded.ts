import { Schema } from "effect"

const utf8 = new TextEncoder()

/**
 * A success body already encoded as JSON, which the transport sends as is. It must be what the
 * endpoint's success schema encodes to: make it with `encoder`, or `plainEncoder`.
 */
export class PreEncoded {
  #bytes: Uint8Array | undefined
  #sent = false
  #coded: Map<string, Uint8Array | Promise<Uint8Array>> | undefined

  constructor(readonly body: string) {}

  /**
   * What the transport writes: the string the first time, then UTF-8 bytes made once (uWS converts
   * a string on every write, and a body sent only once need not pay for the copy).
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
   * The body in a content coding (`gzip`, `br`), made by `compress` the first time a request asks
   * for that coding and kept with the body, so a body reused across requests (`BodiesPerVersion`:
   * until the projection moves on) is compressed once per coding. A promise (a large body compressed
   * off the event loop) is shared by the requests that wait for it, then replaced by its bytes; a
   * failed one is forgotten.
   */
  coded(coding: string, compress: (body: string) => Uint8Array | Promise<Uint8Array>): Uint8Array | Promise<Uint8Array> {
    const coded = this.#coded ??= new Map()
    const known = coded.get(coding)
    if (known !== undefined) return known
    const made = compress(this.body)
    coded.set(coding, made)
    if (made instanceof Promise) {
      made.then((bytes) => coded.set(coding, bytes), () => coded.delete(coding))
    }
    return made
  }

  /** `(value) => PreEncoded`: the body exactly as `schema` encodes the value. */
  static encoder<A, I>(schema: Schema.Schema<A, I>): (value: NoInfer<A>) => PreEncoded {
    const encode = Schema.encodeSync(schema)
    return (value) => new PreEncoded(JSON.stringify(encode(value)))
  }

  /**
   * `(value) => PreEncoded` that skips the schema walk (large pages): the value's JSON. Only for a
   * schema whose encoded form is its type (the type check refuses a transformation such as bigint ->
   * string); its refinements are the caller's guarantee. test/api/referrersPlainBody.test.ts checks
   * the bytes equal the schema's encoding.
   */
  static plainEncoder<A, I>(_schema: Schema.Schema<A, I> & ([A] extends [I] ? unknown : never)): (value: NoInfer<A>) => PreEncoded {
    return (value) => new PreEncoded(JSON.stringify(value))
  }
}

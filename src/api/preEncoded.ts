import { Schema } from "effect"

const utf8 = new TextEncoder()

/**
 * A success body already encoded as JSON, which the transport sends as is. It must be what the
 * endpoint's success schema encodes to: make it with `encoder`, or `plainEncoder`.
 */
export class PreEncoded {
  #bytes: Uint8Array | undefined
  #sent = false

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

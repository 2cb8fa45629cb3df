import { Schema } from "effect"
import { PreEncoded } from "./preEncoded.ts"

/** `(value) => PreEncoded` for a success schema: the body exactly as the contract encodes it. */
export const bodyEncoder = <A, I>(schema: Schema.Schema<A, I>) => {
  const encode = Schema.encodeSync(schema)
  return (value: NoInfer<A>): PreEncoded => new PreEncoded(JSON.stringify(encode(value)))
}

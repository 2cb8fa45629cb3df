import type { Schema } from "effect"
import { PreEncoded } from "../preEncoded.ts"

/**
 * `(value) => PreEncoded` for a success schema whose encoded form is its type (strings, numbers,
 * literals, nulls, arrays and structs of those, refinements such as `Address`, no transformations;
 * the type check refuses a schema whose type is not assignable to its encoded form, e.g. bigint -> string):
 * the body is the value's JSON, skipping a schema walk that costs ~0.1-0.2 ms per cohort row. The
 * caller guarantees the refinements (addresses come from the projection or the event log, already
 * valid); test/api/referrersPlainBody.test.ts checks the bytes equal the schema's encoding.
 */
export const plainBody = <A, I>(_schema: Schema.Schema<A, I> & ([A] extends [I] ? unknown : never)) =>
  (value: NoInfer<A>): PreEncoded => new PreEncoded(JSON.stringify(value))

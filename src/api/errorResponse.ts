import { HttpApiSchema } from "@effect/platform"
import { Option, Schema, SchemaAST } from "effect"
import type { Simplify } from "effect/Types"

/** Marks a schema built by `errorResponse`; the transport refuses endpoints declaring anything else as an error. */
export const ErrorEnvelopeId: unique symbol = Symbol.for("vault-gateway/api/ErrorEnvelope")

/** A `Schema.TaggedError` class with a machine `code` and a `message`. */
export interface CodedErrorClass<Self extends { readonly code: string; readonly message: string }, Encoded>
  extends Schema.Schema<Self, Encoded, never>
{
  new(props: any, options?: any): Self
  readonly fields: Schema.Struct.Fields & { readonly code: Schema.Schema.Any; readonly message: Schema.Schema.Any }
}

/** The wire form: `_tag` dropped, `code` sent as `error`, `success: false` added, other fields kept. */
export type ErrorEnvelopeEncoded<Encoded> = Encoded extends { readonly code: infer Code } ? Simplify<
    { readonly success: false; readonly error: Code } & Omit<Encoded, "_tag" | "code">
  >
  : never

/**
 * The schema an endpoint declares for an error class: decodes the envelope into the class instance
 * (so the typed client gets the class back) and encodes the instance into the envelope. The HTTP
 * status is the class's `HttpApiSchema` status annotation unless given here.
 */
export const errorResponse = <Self extends { readonly code: string; readonly message: string }, Encoded>(
  errorClass: CodedErrorClass<Self, Encoded>,
  annotations?: { readonly status: number; readonly description: string }
): Schema.Schema<Self, ErrorEnvelopeEncoded<Encoded>> => {
  const { _tag: _, code, ...details } = errorClass.fields
  const detailNames = Object.keys(details)
  const envelope = Schema.Struct({ success: Schema.Literal(false), error: code, ...details })
  const instance = Schema.typeSchema(errorClass)
  const status = annotations?.status ?? HttpApiSchema.getStatusError(errorClass)
  const description = annotations?.description ??
    Option.getOrUndefined(SchemaAST.getDescriptionAnnotation(SchemaAST.typeAST(errorClass.ast)))
  const wire = Schema.transform(envelope, instance, {
    strict: false,
    decode: ({ error, success: _, ...rest }) => new errorClass({ ...rest, code: error }),
    encode: (value) => {
      const out: Record<string, unknown> = { success: false, error: value.code }
      for (const name of detailNames) out[name] = (value as unknown as Record<string, unknown>)[name]
      return out
    }
  })
  return wire.annotations({
    ...HttpApiSchema.annotations({ status }),
    ...(description === undefined ? {} : { description }),
    [ErrorEnvelopeId]: true
  }) as unknown as Schema.Schema<Self, ErrorEnvelopeEncoded<Encoded>>
}

import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Option, Schema, SchemaAST } from "effect"
import type { Simplify } from "effect/Types"
import { type HttpErrorCode, httpStatusOf } from "../errors/codes.ts"

/** Marks a schema built by `errorResponse`; the transport refuses endpoints declaring anything else as an error. */
export const ErrorEnvelopeId: unique symbol = Symbol.for("vault-gateway/api/ErrorEnvelope")

/** A `Schema.TaggedError` class with a machine `code` of the registry and a `message`. */
export interface CodedErrorClass<Self extends { readonly code: HttpErrorCode; readonly message: string }, Encoded>
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

const literalsOf = (ast: SchemaAST.AST): ReadonlyArray<HttpErrorCode> => {
  if (SchemaAST.isUnion(ast)) return ast.types.flatMap(literalsOf)
  if (SchemaAST.isLiteral(ast) && typeof ast.literal === "string") return [ast.literal as HttpErrorCode]
  throw new Error(`an error code must be a string literal, got ${String(ast)}`)
}

/** The HTTP status of an error class: the registry's status of its codes (src/errors/codes.ts). */
export const httpStatusOfClass = (errorClass: { readonly fields: { readonly code: Schema.Schema.Any } }): number =>
  httpStatusOf(literalsOf(errorClass.fields.code.ast))

/** An API error class's annotations: its description and the status the registry gives its codes. */
export const errorClassAnnotations = <A>(code: Schema.Schema.Any, description: string): Schema.Annotations.Schema<A> =>
  HttpApiSchema.annotations<A>({ status: httpStatusOf(literalsOf(code.ast)), description })

/**
 * The schema an endpoint declares for an error class: decodes the envelope into the class instance
 * (so the typed client gets the class back) and encodes the instance into the envelope. The HTTP
 * status is the one the error-code registry gives the class's codes.
 */
export const errorResponse = <Self extends { readonly code: HttpErrorCode; readonly message: string }, Encoded>(
  errorClass: CodedErrorClass<Self, Encoded>,
  annotations?: { readonly description: string }
): Schema.Schema<Self, ErrorEnvelopeEncoded<Encoded>> => {
  const { _tag: _, code, ...details } = errorClass.fields
  const detailNames = Object.keys(details)
  const envelope = Schema.Struct({ success: Schema.Literal(false), error: code, ...details })
  const instance = Schema.typeSchema(errorClass)
  const status = httpStatusOfClass(errorClass)
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

// The Solana Actions answers (specification 2.4, the `@solana/actions-spec` types) as Effect
// Schemas, so the document and the transport check what the handlers send.
import { Schema } from "effect"
import { Address } from "../schemas.ts"

/** The specification version these routes follow (`X-Action-Version`). */
export const ACTIONS_SPEC_VERSION = "2.4"

const ActionErrorBody = Schema.Struct({ message: Schema.String })

const AmountParameter = Schema.Struct({
  type: Schema.Literal("number"),
  name: Schema.String,
  label: Schema.String,
  required: Schema.Boolean,
  min: Schema.optional(Schema.Number),
  max: Schema.optional(Schema.Number),
  pattern: Schema.String,
  patternDescription: Schema.String
})

export const LinkedAction = Schema.Struct({
  type: Schema.Literal("transaction"),
  href: Schema.String,
  label: Schema.String,
  parameters: Schema.optional(Schema.Array(AmountParameter))
})
export type LinkedAction = typeof LinkedAction.Type

const actionFields = {
  icon: Schema.String.annotations({ description: "absolute URL of the action's icon (an SVG served by the gateway)" }),
  title: Schema.String,
  description: Schema.String,
  label: Schema.String,
  disabled: Schema.optional(Schema.Boolean),
  /** Non-fatal: the action is shown, but disabled, with this message. */
  error: Schema.optional(ActionErrorBody)
}

export const ActionGetResponse = Schema.Struct({
  type: Schema.Literal("action"),
  ...actionFields,
  links: Schema.Struct({ actions: Schema.Array(LinkedAction) })
}).annotations({ identifier: "ActionGetResponse", description: "Solana Actions GET answer (spec 2.4)" })
export type ActionGetResponse = typeof ActionGetResponse.Type

export const CompletedAction = Schema.Struct({ type: Schema.Literal("completed"), ...actionFields }).annotations({
  identifier: "CompletedAction",
  description: "The end of an action chain: what happened, shown after the transaction confirmed"
})
export type CompletedAction = typeof CompletedAction.Type

export const ActionPostRequest = Schema.Struct({
  account: Address.annotations({ description: "the wallet that signs: fee payer, depositor or withdrawer" })
}).annotations({ identifier: "ActionPostRequest" })

export const NextActionPostRequest = Schema.Struct({
  account: Address,
  signature: Schema.String.pipe(Schema.pattern(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)).annotations({
    description: "the confirmed transaction's signature (base58)"
  })
}).annotations({ identifier: "NextActionPostRequest" })

export const ActionPostResponse = Schema.Struct({
  type: Schema.Literal("transaction"),
  transaction: Schema.String.annotations({
    description: "unsigned v0 transaction, base64; the account in the request is its fee payer and only signer"
  }),
  message: Schema.String,
  links: Schema.Struct({
    next: Schema.Struct({
      type: Schema.Literal("post"),
      href: Schema.String.annotations({ description: "same-origin callback the client posts {account, signature} to" })
    })
  })
}).annotations({ identifier: "ActionPostResponse", description: "Solana Actions POST answer (spec 2.4)" })
export type ActionPostResponse = typeof ActionPostResponse.Type

export const ActionsJson = Schema.Struct({
  rules: Schema.Array(Schema.Struct({ pathPattern: Schema.String, apiPath: Schema.String }))
}).annotations({ identifier: "ActionsJson", description: "Which of this origin's paths are Solana Actions" })
export type ActionsJson = typeof ActionsJson.Type

import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { errorResponse } from "../errorResponse.ts"

/** The agreements belong to the key's owner wallet: a key issued without one has no agreements to show. */
export class OwnerWalletRequired extends Schema.TaggedError<OwnerWalletRequired>()(
  "OwnerWalletRequired",
  { code: Schema.Literal("OWNER_WALLET_REQUIRED"), message: Schema.String },
  HttpApiSchema.annotations({ status: 403, description: "The partner key has no owner wallet" })
) {}

export const OwnerWalletRequiredResponse = errorResponse(OwnerWalletRequired)

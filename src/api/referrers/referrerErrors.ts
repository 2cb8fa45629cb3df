import { Schema } from "effect"
import { codeLiteral } from "../../errors/codeLiteral.ts"
import { errorResponse } from "../errorResponse.ts"

/** The agreements belong to the key's owner wallet: a key issued without one has no agreements to show. */
export class OwnerWalletRequired extends Schema.TaggedError<OwnerWalletRequired>()(
  "OwnerWalletRequired",
  { code: codeLiteral("OWNER_WALLET_REQUIRED"), message: Schema.String },
  { description: "The partner key has no owner wallet" }
) {}

export const OwnerWalletRequiredResponse = errorResponse(OwnerWalletRequired)

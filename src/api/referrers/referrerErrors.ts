import { Schema } from "effect"
import { codeLiteral } from "../../errors/codeLiteral.ts"
import { errorClassAnnotations, errorResponse } from "../errorResponse.ts"

const OwnerWalletRequiredCode = codeLiteral("OWNER_WALLET_REQUIRED")

/** The agreements belong to the key's owner wallet: a key issued without one has no agreements to show. */
export class OwnerWalletRequired extends Schema.TaggedError<OwnerWalletRequired>()(
  "OwnerWalletRequired",
  { code: OwnerWalletRequiredCode, message: Schema.String },
  errorClassAnnotations(OwnerWalletRequiredCode, "The partner key has no owner wallet")
) {}

export const OwnerWalletRequiredResponse = errorResponse(OwnerWalletRequired)

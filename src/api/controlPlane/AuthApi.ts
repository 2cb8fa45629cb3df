import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { MaxBodyBytes } from "../annotations.ts"
import { PayloadTooLargeResponse, RateLimitedResponse } from "../errors.ts"
import { ControlPlaneBadRequestResponse, ControlPlaneNotFoundResponse, OriginRefusedResponse, SignInRefusedResponse } from "./errors.ts"
import { EndedBody, SessionBody, SessionsBody, SignedInBody, SignInInputBody, SignInProof } from "./schemas.ts"
import { WalletSession } from "./WalletSession.ts"

/** Sign-In With Solana and wallet sessions: the way into the control plane. */
export const AuthApi = HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("nonce", "/v2/auth/nonce")
      .addSuccess(SignInInputBody)
      .addError(OriginRefusedResponse)
      .addError(RateLimitedResponse)
      .annotate(OpenApi.Summary, "A fresh Sign-In With Solana input (single-use nonce, valid 10 minutes) for solana:signIn")
  )
  .add(
    HttpApiEndpoint.post("verify", "/v2/auth/verify")
      .setPayload(SignInProof)
      .addSuccess(SignedInBody)
      .addError(ControlPlaneBadRequestResponse)
      .addError(SignInRefusedResponse)
      .addError(OriginRefusedResponse)
      .addError(PayloadTooLargeResponse)
      .addError(RateLimitedResponse)
      .annotate(MaxBodyBytes, 16 * 1024)
      .annotate(OpenApi.Summary, "Sign in: verify the signed Sign-In With Solana input and start a session")
      .annotate(
        OpenApi.Description,
        "Verifies the wallet's SolanaSignInOutput (bytes in base64) against the issued input and sets the session " +
          "cookie. The first sign-in of a wallet creates its organization. Wallets without signIn sign the same " +
          "message text (createSignInMessage of the input with their address) with signMessage and send the same shape."
      )
  )
  .add(
    HttpApiEndpoint.get("session", "/v2/auth/session")
      .addSuccess(SessionBody)
      .middleware(WalletSession)
      .annotate(OpenApi.Summary, "The current wallet session and its organization")
  )
  .add(
    HttpApiEndpoint.post("logout", "/v2/auth/logout")
      .addSuccess(EndedBody)
      .middleware(WalletSession)
      .annotate(OpenApi.Summary, "Ends the current session at once and clears the cookie")
  )
  .add(
    HttpApiEndpoint.get("sessions", "/v2/auth/sessions")
      .addSuccess(SessionsBody)
      .middleware(WalletSession)
      .annotate(OpenApi.Summary, "The wallet's live sessions")
  )
  .add(
    HttpApiEndpoint.post("endSession", "/v2/auth/sessions/:id/end")
      .setPath(Schema.Struct({ id: Schema.String }))
      .addSuccess(EndedBody)
      .addError(ControlPlaneNotFoundResponse)
      .middleware(WalletSession)
      .annotate(OpenApi.Summary, "Ends one of the wallet's sessions")
  )
  .annotate(OpenApi.Title, "Control plane: sign-in")

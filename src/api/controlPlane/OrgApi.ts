import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { MaxBodyBytes } from "../annotations.ts"
import { BadRequestResponse, PayloadTooLargeResponse, RateLimitedResponse } from "../errors.ts"
import {
  ControlPlaneBadRequestResponse,
  ControlPlaneConflictResponse,
  ControlPlaneNotFoundResponse,
  IdempotencyKeyReusedResponse,
  SignInRefusedResponse
} from "./errors.ts"
import {
  AuditBody,
  AuditQuery,
  ClaimCode,
  CodeBody,
  CodesBody,
  GeneratedKey,
  IdempotencyHeaders,
  IssuedKeyBody,
  KeyBody,
  KeysBody,
  UsageBody,
  UsageQuery,
  NewKey,
  OrganizationBody,
  SignInInputBody,
  SignInProof
} from "./schemas.ts"
import { WalletSession } from "./WalletSession.ts"

const KeyPath = Schema.Struct({ id: Schema.String })
const CodePath = Schema.Struct({ code: Schema.String })


const post = <const Name extends string, const Path extends HttpApiEndpoint.PathSegment>(name: Name, path: Path) =>
  HttpApiEndpoint.post(name, path)
    .setHeaders(IdempotencyHeaders)
    .addError(ControlPlaneBadRequestResponse)
    .addError(ControlPlaneConflictResponse)
    .addError(IdempotencyKeyReusedResponse)

/**
 * The organization of the signed-in wallet: its owner, keys, codes and audit log. Every route takes
 * the wallet session cookie; every POST is audited and accepts `Idempotency-Key`.
 */
export const OrgApi = HttpApiGroup.make("org")
  .add(HttpApiEndpoint.get("get", "/v2/org").addSuccess(OrganizationBody).annotate(OpenApi.Summary, "The signed-in wallet's organization"))
  .add(
    post("ownerNonce", "/v2/org/owner/nonce")
      .addSuccess(SignInInputBody)
      .annotate(OpenApi.Summary, "A sign-in input for the new owner wallet to sign (its statement names this organization)")
  )
  .add(
    post("transferOwner", "/v2/org/owner")
      .setPayload(SignInProof)
      .addSuccess(OrganizationBody)
      .addError(SignInRefusedResponse)
      .addError(RateLimitedResponse)
      .addError(PayloadTooLargeResponse)
      .annotate(MaxBodyBytes, 16 * 1024)
      .annotate(OpenApi.Summary, "Move the organization's owner wallet to the wallet that signed the owner nonce")
      .annotate(
        OpenApi.Description,
        "Moves the owner wallet to the wallet that signed the input of POST /v2/org/owner/nonce; codes, agreements and " +
          "reporting follow it, and the previous owner's sessions end."
      )
  )
  .add(HttpApiEndpoint.get("keys", "/v2/org/keys").addSuccess(KeysBody).annotate(OpenApi.Summary, "The organization's API keys (never their plaintext)"))
  .add(
    post("issueKey", "/v2/org/keys")
      .setPayload(NewKey)
      .addSuccess(IssuedKeyBody)
      .addError(PayloadTooLargeResponse)
      .annotate(MaxBodyBytes, 4096)
      .annotate(OpenApi.Summary, "Issues an additional key with a name and scopes; the plaintext is in this answer only")
  )
  .add(
    post("generateKey", "/v2/org/keys/generate")
      .setPayload(GeneratedKey)
      .addSuccess(IssuedKeyBody)
      .addError(PayloadTooLargeResponse)
      .annotate(MaxBodyBytes, 4096)
      .annotate(OpenApi.Summary, "Generate key: a new key, and every earlier active key of the organization revoked")
  )
  .add(
    post("rotateKey", "/v2/org/keys/:id/rotate")
      .setPath(KeyPath)
      .addSuccess(IssuedKeyBody)
      .addError(ControlPlaneNotFoundResponse)
      .annotate(OpenApi.Summary, "A replacement key; the old one stays valid 60 seconds")
  )
  .add(
    post("revokeKey", "/v2/org/keys/:id/revoke")
      .setPath(KeyPath)
      .addSuccess(KeyBody)
      .addError(ControlPlaneNotFoundResponse)
      .annotate(OpenApi.Summary, "Revokes a key (refused on every instance within 60 seconds)")
  )
  .add(HttpApiEndpoint.get("codes", "/v2/org/codes").addSuccess(CodesBody).annotate(OpenApi.Summary, "The organization's builder codes"))
  .add(
    post("claimCode", "/v2/org/codes")
      .setPayload(ClaimCode)
      .addSuccess(CodeBody)
      .addError(PayloadTooLargeResponse)
      .annotate(MaxBodyBytes, 1024)
      .annotate(
        OpenApi.Summary,
        "Claims a code (3-32 of A-Z a-z 0-9 _ -, starting with a letter or digit; unique without regard to case)"
      )
  )
  .add(
    post("disableCode", "/v2/org/codes/:code/disable")
      .setPath(CodePath)
      .addSuccess(CodeBody)
      .addError(ControlPlaneNotFoundResponse)
      .annotate(OpenApi.Summary, "Disables a code: it resolves to nothing but stays reserved")
  )
  .add(
    post("enableCode", "/v2/org/codes/:code/enable")
      .setPath(CodePath)
      .addSuccess(CodeBody)
      .addError(ControlPlaneNotFoundResponse)
      .annotate(OpenApi.Summary, "Enables a disabled code again")
  )
  .add(
    HttpApiEndpoint.get("usage", "/v2/org/usage")
      .setUrlParams(UsageQuery)
      .addSuccess(UsageBody)
      .addError(BadRequestResponse)
      .annotate(OpenApi.Summary, "Requests per key and UTC day over the last `days` days (default 30, today included)")
  )
  .add(
    HttpApiEndpoint.get("audit", "/v2/org/audit")
      .setUrlParams(AuditQuery)
      .addSuccess(AuditBody)
      .addError(BadRequestResponse)
      .annotate(OpenApi.Summary, "The audit log, newest first; limit 1-100 (default 50), pass nextCursor as cursor")
  )
  .middleware(WalletSession)
  .annotate(OpenApi.Title, "Control plane: organization")

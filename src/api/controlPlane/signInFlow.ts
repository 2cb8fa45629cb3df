import { randomBytes } from "node:crypto"
import { Effect, Either } from "effect"
import { RateLimiter } from "../../../services/RateLimiter.ts"
import { type NoncePurpose, SignInNonces } from "../../../services/SignInNonces.ts"
import { checkSignIn, makeSignInInput, type SignInInput, type SignInRefusalReason, signedNonce } from "../../domain/controlPlane/signIn.ts"
import { clientIpOf } from "../builds/clientIp.ts"
import { RateLimited } from "../errors.ts"
import type { RequestInfo } from "../handlers.ts"
import type { ControlPlaneSettings } from "./controlPlaneConfig.ts"
import { ControlPlaneBadRequest, SignInRefused } from "./errors.ts"
import type { SignInProof } from "./schemas.ts"

const REFUSAL_CODES = {
  mismatch: "SIWS_FIELD_MISMATCH",
  time: "SIWS_EXPIRED",
  signature: "SIWS_SIGNATURE_INVALID"
} as const

const refusal = (reason: SignInRefusalReason, message: string) =>
  reason === "malformed"
    ? new ControlPlaneBadRequest({ code: "SIWS_MESSAGE_INVALID", message })
    : new SignInRefused({ code: REFUSAL_CODES[reason], message })

const nonceInvalid = new SignInRefused({
  code: "SIWS_NONCE_INVALID",
  message: "the nonce is unknown, already used or expired; ask for a new sign-in input"
})

/**
 * Issuing sign-in inputs and verifying the wallets' outputs, with their nonces in shared storage and
 * a per-IP meter on both steps. Used by sign-in and by the owner transfer (the new wallet's proof).
 */
export const makeSignInFlow = (settings: ControlPlaneSettings) =>
  Effect.gen(function*() {
    const nonces = yield* SignInNonces
    const limiter = yield* RateLimiter

    const meter = (request: RequestInfo) =>
      Effect.flatMap(limiter.consume(`siws-ip:${clientIpOf(request, settings.trustProxy)}`, settings.signInQuota), (decision) =>
        decision.allowed
          ? Effect.void
          : Effect.fail(
            new RateLimited({
              code: "RATE_LIMITED",
              message: `at most ${decision.limit} sign-in requests per ${settings.signInQuota.windowSeconds} s from one client`,
              limit: decision.limit,
              remaining: 0,
              reset: decision.reset,
              retryAfterSeconds: decision.retryAfterSeconds
            })
          ))

    const issue = (purpose: NoncePurpose, organizationId: string | null, statement: string): Effect.Effect<SignInInput> =>
      Effect.gen(function*() {
        // 128 random bits, alphanumeric as EIP-4361 wants
        const input = makeSignInInput(settings, randomBytes(16).toString("hex"), statement, new Date())
        yield* nonces.store({ nonce: input.nonce, purpose, organizationId, input, expiresAt: new Date(input.expirationTime) })
        return input
      })

    /** The wallet that signed, once every check passed and the nonce was consumed. */
    const verify = (purpose: NoncePurpose, organizationId: string | null, proof: SignInProof) =>
      Effect.gen(function*() {
        const output = {
          address: proof.output.account.address,
          publicKey: Buffer.from(proof.output.account.publicKey, "base64"),
          signedMessage: Buffer.from(proof.output.signedMessage, "base64"),
          signature: Buffer.from(proof.output.signature, "base64")
        }
        const nonce = signedNonce(output.signedMessage)
        if (Either.isLeft(nonce)) return yield* Effect.fail(refusal(nonce.left.reason, nonce.left.message))
        const stored = yield* nonces.find(nonce.right)
        const now = Date.now()
        if (
          stored === null || stored.usedAt !== null || stored.expiresAt.getTime() <= now || stored.purpose !== purpose ||
          stored.organizationId !== organizationId
        ) return yield* Effect.fail(nonceInvalid)
        const checked = checkSignIn(stored.input, proof.input, output, now)
        if (Either.isLeft(checked)) return yield* Effect.fail(refusal(checked.left.reason, checked.left.message))
        // two requests with one signed message: only one consumes the nonce
        if (!(yield* nonces.consume(nonce.right))) return yield* Effect.fail(nonceInvalid)
        return checked.right
      })

    return { meter, issue, verify }
  })

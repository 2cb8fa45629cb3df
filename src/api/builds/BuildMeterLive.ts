import { Context, Effect, Option } from "effect"
import { type Quota, RateLimiter } from "../../../services/RateLimiter.ts"
import { RateLimited } from "../errors.ts"
import { implementMiddleware, middlewareImplementationTag } from "../middleware.ts"
import { AuthenticatedPartner, PartnerKey } from "../security/PartnerKey.ts"
import { BuildMeter } from "./BuildMeter.ts"
import { clientIpOf } from "./clientIp.ts"

export interface BuildMeterOptions {
  /** Builds per window and client IP (default 20 per 60 s). */
  readonly perIp: Quota
  /** Take the client from `X-Forwarded-For`: only when a proxy we run sets it. */
  readonly trustProxy: boolean
}

const hasKey = (headers: Readonly<Record<string, string>>) =>
  headers["x-api-key"] !== undefined || headers["authorization"] !== undefined

const rateLimitHeaders = (limit: number, remaining: number, reset: number) =>
  [
    ["x-ratelimit-limit", String(limit)],
    ["x-ratelimit-remaining", String(remaining)],
    ["x-ratelimit-reset", String(reset)]
  ] as const

/**
 * Per-IP metering of the public builders. A request carrying a valid partner key is metered on the
 * key's quota instead (the `PartnerKey` implementation decides, when one is served); an invalid
 * key is ignored and the request metered per IP like an anonymous one.
 */
export const BuildMeterLive = (options: BuildMeterOptions) =>
  implementMiddleware(
    BuildMeter,
    Effect.fnUntraced(function*(request) {
      const context = yield* Effect.context<never>()
      const keyed = Context.getOption(context, middlewareImplementationTag(PartnerKey))
      if (Option.isSome(keyed) && hasKey(request.headers)) {
        const outcome = yield* Effect.either(keyed.value.run(request))
        if (outcome._tag === "Right") {
          // the partner is named in the logs (spec §5): never the key, only its id and name
          const partner = Context.getOption(outcome.right.context, AuthenticatedPartner)
          if (Option.isSome(partner)) {
            yield* Effect.logInfo("build metered on a partner key").pipe(
              Effect.annotateLogs({ requestId: request.id, partnerKeyId: partner.value.keyId, partnerName: partner.value.name })
            )
          }
          return { headers: outcome.right.headers }
        }
        if (outcome.left instanceof RateLimited) return yield* Effect.fail(outcome.left)
      }
      const limiter = yield* RateLimiter
      const decision = yield* limiter.consume(`build-ip:${clientIpOf(request, options.trustProxy)}`, options.perIp)
      if (decision.allowed) return { headers: rateLimitHeaders(decision.limit, decision.remaining, decision.reset) }
      return yield* Effect.fail(
        new RateLimited({
          code: "RATE_LIMITED",
          limit: decision.limit,
          remaining: 0,
          reset: decision.reset,
          retryAfterSeconds: decision.retryAfterSeconds,
          message: `at most ${decision.limit} builds per ${options.perIp.windowSeconds} s from one client; retry in ${decision.retryAfterSeconds} s`
        })
      )
    })
  )

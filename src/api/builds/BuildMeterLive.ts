import { Context, Effect, Exit, Layer, Option } from "effect"
import { type Quota, type RateLimitDecision, RateLimiter } from "../../../services/RateLimiter.ts"
import { RateLimited } from "../errors.ts"
import type { RequestInfo } from "../handlers.ts"
import { implementMiddleware, middlewareImplementationTag, type MiddlewareRuntime } from "../middleware.ts"
import { AuthenticatedPartner, PartnerKey } from "../security/PartnerKey.ts"
import { BuildMeter } from "./BuildMeter.ts"
import { clientIpOf } from "./clientIp.ts"

export interface BuildMeterOptions {
  /** Builds per window and client IP (default 20 per 60 s). */
  readonly perIp: Quota
  /** Take the client from `X-Forwarded-For`: only when a proxy we run sets it. */
  readonly trustProxy: boolean
}

const hasKey = (request: RequestInfo) =>
  request.header("x-api-key") !== undefined || request.header("authorization") !== undefined

const rateLimitHeaders = (limit: number, remaining: number, reset: number) =>
  [
    ["x-ratelimit-limit", String(limit)],
    ["x-ratelimit-remaining", String(remaining)],
    ["x-ratelimit-reset", String(reset)]
  ] as const

/**
 * Per-IP metering of the public builders. A request carrying a valid partner key is metered on the
 * key's quota instead (the `PartnerKey` implementation decides, when one is served); an invalid
 * key is ignored and the request metered per IP like an anonymous one. With a limiter that answers
 * at once (the in-memory one) an anonymous request is decided synchronously: the outcome is an
 * `Exit` and the transport runs no fiber for the meter.
 */
export const BuildMeterLive = (options: BuildMeterOptions) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const clock = yield* Effect.clock
      const keyed = yield* Effect.serviceOption(middlewareImplementationTag(PartnerKey))

      const decided = (decision: RateLimitDecision): Exit.Exit<{ readonly headers: ReturnType<typeof rateLimitHeaders> }, RateLimited> =>
        decision.allowed
          ? Exit.succeed({ headers: rateLimitHeaders(decision.limit, decision.remaining, decision.reset) })
          : Exit.fail(
            new RateLimited({
              code: "RATE_LIMITED",
              limit: decision.limit,
              remaining: 0,
              reset: decision.reset,
              retryAfterSeconds: decision.retryAfterSeconds,
              message: `at most ${decision.limit} builds per ${options.perIp.windowSeconds} s from one client; retry in ${decision.retryAfterSeconds} s`
            })
          )

      const perIp = (request: RequestInfo) => {
        const bucket = `build-ip:${clientIpOf(request, options.trustProxy)}`
        const now = limiter.consumeNow(bucket, options.perIp, clock.unsafeCurrentTimeMillis())
        return now !== undefined ? decided(now) : Effect.flatMap(limiter.consume(bucket, options.perIp), decided)
      }

      const onPartnerKey = Effect.fnUntraced(function*(request: RequestInfo, partnerKey: MiddlewareRuntime) {
        const outcome = yield* Effect.either(partnerKey.run(request))
        if (outcome._tag === "Right") {
          // the partner is named in the logs (spec §5): never the key, only its id and name
          const partner = Context.getOption(outcome.right.context, AuthenticatedPartner)
          if (Option.isSome(partner)) {
            yield* Effect.logDebug("build metered on a partner key").pipe(
              Effect.annotateLogs({ requestId: request.id, partnerKeyId: partner.value.keyId, partnerName: partner.value.name })
            )
          }
          return { headers: outcome.right.headers }
        }
        if (outcome.left instanceof RateLimited) return yield* Effect.fail(outcome.left)
        return yield* perIp(request)
      })

      return implementMiddleware(BuildMeter, (request) =>
        Option.isSome(keyed) && hasKey(request) ? onPartnerKey(request, keyed.value) : perIp(request))
    })
  )

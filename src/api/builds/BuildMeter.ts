import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import { RateLimitedResponse } from "../errors.ts"

/**
 * Meters the public transaction builders per client IP (fixed window); over the limit -> 429 with
 * `Retry-After` and `X-RateLimit-*`, which also go out on every metered answer.
 */
export class BuildMeter extends HttpApiMiddleware.Tag<BuildMeter>()("BuildMeter", {
  failure: RateLimitedResponse
}) {}

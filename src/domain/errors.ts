import { Schema } from "effect"
import { codeLiteral } from "../errors/codeLiteral.ts"

/**
 * Expected failures of the domain, each with a stable machine `code` declared in the error-code
 * registry (src/errors/codes.ts), which also gives its HTTP status.
 */

/** The projection a read needs is not live (starting, restoring, catching up or degraded). */
export class ProjectionUnavailable extends Schema.TaggedError<ProjectionUnavailable>()("ProjectionUnavailable", {
  code: codeLiteral("PROJECTION_UNAVAILABLE"),
  message: Schema.String,
  status: Schema.String,
  retryAfterSeconds: Schema.Int
}) {
  static readonly because = (status: string, retryAfterSeconds = 5) =>
    new ProjectionUnavailable({
      code: "PROJECTION_UNAVAILABLE",
      status,
      retryAfterSeconds,
      message: `the projection is ${status.replace("_", " ")}; retry in ${retryAfterSeconds} s`
    })
}

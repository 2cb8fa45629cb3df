import { Schema } from "effect"

/**
 * Expected failures of the domain, each with a stable machine `code` (append-only: never rename or
 * re-mean one). Their HTTP statuses are declared once, in the API contract.
 */

/** The projection a read needs is not live (starting, restoring, catching up or degraded). */
export class ProjectionUnavailable extends Schema.TaggedError<ProjectionUnavailable>()("ProjectionUnavailable", {
  code: Schema.Literal("PROJECTION_UNAVAILABLE"),
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

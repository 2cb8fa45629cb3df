import { Context } from "effect"
import type { StatusSample } from "../src/domain/statusSeries.ts"

/** A short in-memory history of the gateway's state (lag, request rate, connections) for the ops page. */
export class StatusHistory extends Context.Tag("StatusHistory")<
  StatusHistory,
  {
    readonly intervalSeconds: number
    /** Oldest first, at most an hour. */
    readonly samples: () => ReadonlyArray<StatusSample>
  }
>() {}

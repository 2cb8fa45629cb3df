import { type Metric, Metric as M } from "effect"
import { httpDuration, httpRequests, NO_TAGS } from "./instruments.ts"

const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const

/**
 * The HTTP instruments of one route, tagged once with its template and method (never the raw path,
 * so the label set stays bounded), so that counting a request costs two hook calls.
 */
export class RouteMeter {
  readonly #requests: ReadonlyArray<Metric.Metric.Counter<number>>
  readonly #duration: Metric.Metric.Histogram<number>

  constructor(route: string, method: string) {
    const tagged = <M extends Metric.Metric<any, any, any>>(metric: M) => metric.pipe(M.tagged("route", route), M.tagged("method", method)) as M
    this.#requests = STATUS_CLASSES.map((statusClass) => tagged(httpRequests).pipe(M.tagged("status_class", statusClass)))
    this.#duration = tagged(httpDuration)
  }

  /** One answered request: its status and the `performance.now()` at which it arrived. */
  record(status: number, startedAt: number): void {
    const index = Math.min(Math.max(Math.floor(status / 100) - 1, 0), 4)
    this.#requests[index]!.unsafeUpdate(1, NO_TAGS)
    this.#duration.unsafeUpdate((performance.now() - startedAt) / 1000, NO_TAGS)
  }
}

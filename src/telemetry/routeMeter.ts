import { httpDuration, httpRequests, type Labelled, labelled } from "./instruments.ts"

const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const

/**
 * The HTTP instruments of one route, labelled once with its template and method (never the raw path,
 * so the label set stays bounded), so that counting a request costs two hook calls.
 */
export class RouteMeter {
  readonly #requests: ReadonlyArray<Labelled<number>>
  readonly #duration: Labelled<number>

  constructor(route: string, method: string) {
    this.#requests = STATUS_CLASSES.map((status_class) => labelled(httpRequests, { route, method, status_class }))
    this.#duration = labelled(httpDuration, { route, method })
  }

  /** One answered request: its status and the `performance.now()` at which it arrived. */
  record(status: number, startedAt: number): void {
    const index = Math.min(Math.max(Math.floor(status / 100) - 1, 0), 4)
    this.#requests[index]!.update(1)
    this.#duration.update((performance.now() - startedAt) / 1000)
  }
}

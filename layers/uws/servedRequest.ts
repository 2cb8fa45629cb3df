import type { HttpResponse } from "uwebsockets"
import type { RequestInfo } from "../../src/api/handlers.ts"

const NOT_READ = undefined

/**
 * A header in `pairs` (name, value, name, value...: lower-case names as uWS gives them), repeated
 * ones joined with ", ". A request has a few headers and is asked for fewer: comparing names costs
 * less than a record keyed by them, whose every key V8 hashes and interns per request (a tenth of a
 * cached read's instructions, callgrind).
 */
export const headerIn = (pairs: ReadonlyArray<string>, name: string): string | undefined => {
  let found: string | undefined
  for (let i = 0; i < pairs.length; i += 2) {
    if (pairs[i] === name) found = found === undefined ? pairs[i + 1]! : `${found}, ${pairs[i + 1]!}`
  }
  return found
}

/** The headers in `pairs` as a record (for a route's header schema). */
export const headerRecord = (pairs: ReadonlyArray<string>): Record<string, string> => {
  // No prototype: a header named `__proto__` is a header like any other.
  const record: Record<string, string> = Object.create(null)
  for (let i = 0; i < pairs.length; i += 2) {
    const name = pairs[i]!
    const previous = record[name]
    record[name] = previous === undefined ? pairs[i + 1]! : `${previous}, ${pairs[i + 1]!}`
  }
  return record
}

/**
 * The `RequestInfo` of a request being served. The peer address costs a native call and a buffer
 * copy, and only the per-IP build meter wants it, so it is read from the socket on first use. uWS
 * forbids touching a response after it was answered or aborted: the transport calls `pin` before
 * anything of the request can run later (an asynchronous step), while the response is still valid.
 */
export class ServedRequest implements RequestInfo {
  #remoteAddress: string | undefined = NOT_READ

  constructor(
    readonly id: string,
    readonly method: string,
    readonly path: string,
    readonly query: string,
    /** name, value, name, value...: see `headerIn`. */
    readonly headerPairs: ReadonlyArray<string>,
    private readonly res: HttpResponse,
    /** `performance.now()` when it arrived (0 when requests are not metered). */
    readonly startedAt = 0
  ) {}

  header(name: string): string | undefined {
    return headerIn(this.headerPairs, name)
  }

  get remoteAddress(): string {
    if (this.#remoteAddress === NOT_READ) this.#remoteAddress = Buffer.from(this.res.getRemoteAddressAsText()).toString("latin1")
    return this.#remoteAddress
  }

  /** Reads the peer address now, while the response may still be touched. */
  pin(): void {
    void this.remoteAddress
  }
}

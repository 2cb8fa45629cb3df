import type { HttpResponse } from "uwebsockets"
import type { RequestInfo } from "../../src/api/handlers.ts"

const NOT_READ = undefined

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
    readonly headers: Readonly<Record<string, string>>,
    private readonly res: HttpResponse,
    /** `performance.now()` when it arrived (0 when requests are not metered). */
    readonly startedAt = 0
  ) {}

  get remoteAddress(): string {
    if (this.#remoteAddress === NOT_READ) this.#remoteAddress = Buffer.from(this.res.getRemoteAddressAsText()).toString("latin1")
    return this.#remoteAddress
  }

  /** Reads the peer address now, while the response may still be touched. */
  pin(): void {
    void this.remoteAddress
  }
}

/** Request size limits the transport enforces (each over-limit request gets a 4xx envelope). */
export interface HttpLimits {
  /** Path plus query string; over it -> 414 `URI_TOO_LONG`. */
  readonly maxRequestTargetBytes: number
  /** All header names and values together; over it -> 431 `HEADERS_TOO_LARGE`. */
  readonly maxHeaderBytes: number
  /** Request body unless an endpoint's `MaxBodyBytes` says otherwise; over it -> 413 `PAYLOAD_TOO_LARGE`. */
  readonly maxBodyBytes: number
  /** Distinct-or-repeated query parameters; over it -> 400 `INVALID_QUERY`. */
  readonly maxQueryParameters: number
}

// uWS itself refuses header blocks of roughly 64 KB and more with a bare 431 and no envelope; these
// limits sit well below that so our own envelope answers first.
export const defaultHttpLimits: HttpLimits = {
  maxRequestTargetBytes: 4096,
  maxHeaderBytes: 16 * 1024,
  maxBodyBytes: 64 * 1024,
  maxQueryParameters: 64
}

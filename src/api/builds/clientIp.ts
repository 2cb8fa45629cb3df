import type { RequestInfo } from "../handlers.ts"

/**
 * The client a public request is metered as: the socket's peer, or, only behind a trusted proxy,
 * the left-most `X-Forwarded-For` entry (the proxy appends; a client can only prepend, so with a
 * single trusted proxy the right-most entry is the one the proxy saw).
 */
export const clientIpOf = (request: RequestInfo, trustProxy: boolean): string => {
  if (!trustProxy) return request.remoteAddress
  const forwarded = request.headers["x-forwarded-for"]
  if (forwarded === undefined) return request.remoteAddress
  const hops = forwarded.split(",")
  const nearest = hops[hops.length - 1]!.trim()
  return nearest === "" ? request.remoteAddress : nearest
}

import type { RequestInfo } from "../handlers.ts"

/**
 * The client a public request is metered as: the socket's peer, or, only behind a trusted proxy,
 * the right-most `X-Forwarded-For` entry: the one our proxy appended (entries to its left come
 * from the client and can be forged).
 */
export const clientIpOf = (request: RequestInfo, trustProxy: boolean): string => {
  if (!trustProxy) return request.remoteAddress
  const forwarded = request.header("x-forwarded-for")
  if (forwarded === undefined) return request.remoteAddress
  const hops = forwarded.split(",")
  const nearest = hops[hops.length - 1]!.trim()
  return nearest === "" ? request.remoteAddress : nearest
}

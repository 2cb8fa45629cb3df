import { randomBytes } from "node:crypto"

const SANE_INCOMING = /^[A-Za-z0-9._:-]{1,128}$/
const processPrefix = randomBytes(6).toString("base64url")
let counter = 0

/**
 * The request's id: a caller's `X-Request-Id` when it is short and plain (so ids can be traced
 * across a proxy), otherwise a new one unique to this process: a random prefix and a counter.
 */
export const requestIdFor = (incoming: string): string =>
  incoming.length > 0 && SANE_INCOMING.test(incoming) ? incoming : `${processPrefix}-${(++counter).toString(36)}`

import { type Labelled, labelled, rateLimitRefusals } from "./instruments.ts"

/** Bucket prefixes (`key:<id>`, `build-ip:<ip>`, ...) name the limit; the rest of a bucket never becomes a label. */
const KINDS: Record<string, string> = {
  "key": "partner_key_quota",
  "build-ip": "build_per_ip",
  "siws-ip": "sign_in_per_ip",
  "ws-key": "ws_connections_per_key"
}

const counters = new Map<string, Labelled<number>>()

export const countRefusal = (bucket: string): void => {
  const kind = KINDS[bucket.slice(0, bucket.indexOf(":"))] ?? "other"
  let counter = counters.get(kind)
  if (counter === undefined) counters.set(kind, counter = labelled(rateLimitRefusals, { kind }))
  counter.update(1)
}

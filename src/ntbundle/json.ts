import { toHex } from "./bytes.ts"

/**
 * The project's JSON form of a decoded value: bigint -> decimal string (amounts never become JS
 * numbers), Uint8Array -> lowercase hex, arrays and plain objects recursively with their
 * (camelCase) keys unchanged; strings (so Address, base58), numbers, booleans and null as they are.
 */
export const toJson = (value: unknown): unknown => {
  if (typeof value === "bigint") return value.toString()
  if (value instanceof Uint8Array) return toHex(value)
  if (Array.isArray(value)) return value.map(toJson)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, toJson(field)]))
  }
  return value
}

/**
 * `JSON.stringify(toJson(value))`, written straight out: no intermediate copy of the value (the
 * event log stores every event's data this way, thousands a second during a backfill).
 */
export const toJsonText = (value: unknown): string => {
  switch (typeof value) {
    case "bigint":
      return `"${value}"`
    case "string":
      return JSON.stringify(value)
    case "object": {
      if (value === null) return "null"
      if (value instanceof Uint8Array) return `"${toHex(value)}"`
      if (Array.isArray(value)) {
        let text = "["
        for (let i = 0; i < value.length; i++) {
          const item = value[i]
          // as JSON.stringify writes them in arrays
          text += (i === 0 ? "" : ",") + (item === undefined || typeof item === "function" || typeof item === "symbol" ? "null" : toJsonText(item))
        }
        return text + "]"
      }
      let text = "{"
      let first = true
      for (const key of Object.keys(value)) {
        const field = (value as Record<string, unknown>)[key]
        if (field === undefined || typeof field === "function" || typeof field === "symbol") continue
        text += (first ? "" : ",") + JSON.stringify(key) + ":" + toJsonText(field)
        first = false
      }
      return text + "}"
    }
    default:
      return JSON.stringify(value) ?? "null"
  }
}

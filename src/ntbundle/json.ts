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

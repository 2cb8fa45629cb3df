/**
 * JSON text for RPC answers. Solana sends u64 values (lamports, slots, fees) as bare JSON numbers,
 * which may exceed 2^53; inside the sandbox they are bigints, written here as their exact digits.
 * `RawJson` wraps text that is already JSON (an account encoded once and reused many times).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | RawJson
  | ReadonlyArray<JsonValue>
  | { readonly [key: string]: JsonValue | undefined }

export const stringifyJson = (value: JsonValue): string => {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value)
    case "number":
      return Number.isFinite(value) ? String(value) : "null"
    case "bigint":
      return value.toString()
    case "boolean":
      return value ? "true" : "false"
    case "object": {
      if (value === null) return "null"
      if (value instanceof RawJson) return value.text
      if (Array.isArray(value)) {
        let out = "["
        for (let index = 0; index < value.length; index++) {
          if (index > 0) out += ","
          out += stringifyJson(value[index] as JsonValue)
        }
        return out + "]"
      }
      let out = "{"
      let first = true
      for (const key in value) {
        const field = (value as { readonly [key: string]: JsonValue | undefined })[key]
        if (field === undefined) continue
        out += (first ? "" : ",") + JSON.stringify(key) + ":" + stringifyJson(field)
        first = false
      }
      return out + "}"
    }
    default:
      return "null"
  }
}

/**
 * A result too large to build as one string (getProgramAccounts over a million accounts):
 * produced lazily as JSON text pieces that concatenate to one JSON value.
 */
export class JsonStream {
  constructor(readonly pieces: () => Iterable<string>) {}
}

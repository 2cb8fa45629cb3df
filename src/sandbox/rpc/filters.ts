import { decodeBase58 } from "../../ntbundle/base58.ts"
import { invalidParams, paramError } from "./rpcError.ts"
import { isRecord } from "./params.ts"

/** getProgramAccounts / programSubscribe filters: `memcmp` (base58 or base64 bytes) and `dataSize`. */
export type AccountFilter =
  | { readonly kind: "memcmp"; readonly offset: number; readonly bytes: Uint8Array }
  | { readonly kind: "dataSize"; readonly size: number }

const MAX_FILTERS = 4
const MAX_MEMCMP_BYTES = 128

const readMemcmp = (value: unknown): AccountFilter => {
  if (!isRecord(value)) throw invalidParams("invalid memcmp filter")
  const { offset, bytes, encoding } = value
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0) throw invalidParams("invalid memcmp offset")
  if (typeof bytes !== "string") throw invalidParams("invalid memcmp bytes")
  let decoded: Uint8Array | undefined
  if (encoding === undefined || encoding === null || encoding === "base58") decoded = decodeBase58(bytes)
  else if (encoding === "base64") decoded = /^[A-Za-z0-9+/]*={0,2}$/.test(bytes) ? new Uint8Array(Buffer.from(bytes, "base64")) : undefined
  else throw invalidParams(`unknown variant \`${String(encoding)}\`, expected \`base58\` or \`base64\``)
  if (decoded === undefined) throw paramError(`Invalid param: invalid memcmp bytes for encoding ${String(encoding ?? "base58")}`)
  if (decoded.length > MAX_MEMCMP_BYTES) throw paramError("Invalid param: memcmp bytes too large")
  return { kind: "memcmp", offset, bytes: decoded }
}

export const readFilters = (value: unknown): ReadonlyArray<AccountFilter> => {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw invalidParams("invalid type: filters must be an array")
  if (value.length > MAX_FILTERS) throw paramError(`Too many filters provided; max ${MAX_FILTERS}`)
  return value.map((filter: unknown): AccountFilter => {
    if (!isRecord(filter)) throw invalidParams("invalid filter")
    if ("memcmp" in filter) return readMemcmp(filter["memcmp"])
    if ("dataSize" in filter) {
      const size = filter["dataSize"]
      if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) throw invalidParams("invalid dataSize filter")
      return { kind: "dataSize", size }
    }
    throw invalidParams("unknown filter: expected memcmp or dataSize")
  })
}

export const matchesFilters = (data: Uint8Array, filters: ReadonlyArray<AccountFilter>): boolean => {
  for (const filter of filters) {
    if (filter.kind === "dataSize") {
      if (data.length !== filter.size) return false
      continue
    }
    const { offset, bytes } = filter
    if (offset + bytes.length > data.length) return false
    for (let index = 0; index < bytes.length; index++) if (data[offset + index] !== bytes[index]) return false
  }
  return true
}

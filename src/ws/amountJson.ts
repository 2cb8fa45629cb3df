import type { Amount, TokenQuantity } from "../api/amounts.ts"

// `raw` and `token` are integer and decimal digits with an optional sign and point: nothing in them
// needs escaping, so the JSON is written around them without JSON.stringify's generic walk.

/** `JSON.stringify` of a `TokenQuantity` (or null). */
export const quantityJson = (quantity: TokenQuantity | null): string =>
  quantity === null ? "null" : `{"raw":"${quantity.raw}","token":"${quantity.token}"}`

/** `JSON.stringify` of an `Amount` (or null); a USD value that is not finite is null, as in JSON. */
export const amountJson = (value: Amount | null): string =>
  value === null
    ? "null"
    : `{"raw":"${value.raw}","token":"${value.token}","usd":${value.usd !== null && Number.isFinite(value.usd) ? String(value.usd) : "null"}}`

import { Schema } from "effect"

/**
 * Amounts on the wire (spec §2.2): `raw` is the canonical base-10 integer in the token's minor
 * units, `token` the same value as an exact decimal string, `usd` a float or null when no fresh
 * price exists (never 0 and never an assumed $1 for stablecoins).
 */

/** `raw / 10^decimals` written exactly: no float on the way, trailing zeros dropped ("123.45", "-0.5", "7"). */
export const formatTokenAmount = (raw: bigint, decimals: number): string => {
  const negative = raw < 0n
  const digits = (negative ? -raw : raw).toString()
  return negative ? `-${decimalText(digits, decimals)}` : decimalText(digits, decimals)
}

/** Base-10 digits of an integer as that integer / 10^decimals, trailing fraction zeros dropped. */
const decimalText = (digits: string, decimals: number): string => {
  if (decimals <= 0) return digits
  const whole = digits.length > decimals ? digits.slice(0, digits.length - decimals) : "0"
  const fraction = digits.length > decimals ? digits.slice(digits.length - decimals) : digits.padStart(decimals, "0")
  let end = fraction.length
  while (end > 0 && fraction.charCodeAt(end - 1) === 48 /* "0" */) end--
  return end === 0 ? whole : `${whole}.${fraction.slice(0, end)}`
}

export const RawAmount = Schema.String.annotations({
  identifier: "RawAmount",
  description: "base-10 integer in minor units (may be negative only where the field says so)",
  examples: ["123450000"]
})

/** `{raw, token}`: quantities that have no USD value of their own (shares, signed net deposits). */
export const TokenQuantity = Schema.Struct({ raw: RawAmount, token: Schema.String }).annotations({
  identifier: "TokenQuantity"
})
export type TokenQuantity = typeof TokenQuantity.Type

export const Amount = Schema.Struct({
  raw: RawAmount,
  token: Schema.String,
  usd: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "Amount", description: "usd is null when no fresh price is known" })
export type Amount = typeof Amount.Type

export const tokenQuantity = (raw: bigint, decimals: number): TokenQuantity => ({
  raw: raw.toString(),
  token: formatTokenAmount(raw, decimals)
})

/** The USD value of `raw` at `usdPerToken`, or null without a price. */
export const amount = (raw: bigint, decimals: number, usdPerToken: number | null): Amount => {
  const token = formatTokenAmount(raw, decimals)
  return { raw: raw.toString(), token, usd: usdPerToken === null ? null : Number(token) * usdPerToken }
}

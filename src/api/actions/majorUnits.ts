import { Either } from "effect"
import { malformed, type MalformedRequest } from "../../domain/builds/errors.ts"

const MAJOR = /^(0|[1-9][0-9]{0,19})(?:\.([0-9]{1,18}))?$/

/**
 * An amount a person typed in a blink ("12.5" in the token's major units) as raw minor units: at
 * most `decimals` fraction digits, more than zero; never through a float.
 */
export const rawFromMajorUnits = (
  text: string | undefined,
  decimals: number,
  symbol: string
): Either.Either<bigint, MalformedRequest> => {
  if (text === undefined) return Either.left(malformed("MISSING_FIELD", `give the amount in ${symbol}, e.g. ?amount=10`))
  const match = MAJOR.exec(text)
  if (match === null) {
    return Either.left(malformed("INVALID_AMOUNT_RAW", `the amount must be a plain decimal number of ${symbol}, e.g. 12.5`))
  }
  const fraction = match[2] ?? ""
  if (fraction.length > decimals) {
    return Either.left(malformed("INVALID_AMOUNT_RAW", `${symbol} has ${decimals} decimals; the amount has ${fraction.length}`))
  }
  const raw = BigInt(match[1]! + fraction.padEnd(decimals, "0"))
  if (raw === 0n) return Either.left(malformed("INVALID_AMOUNT_RAW", "the amount must be more than zero"))
  if (raw >= 1n << 64n) return Either.left(malformed("INVALID_AMOUNT_RAW", "the amount is larger than any token account holds"))
  return Either.right(raw)
}

import { Either } from "effect"

export type QueryValues = Record<string, string | Array<string>>

const decodeComponent = (raw: string): string | undefined => {
  if (raw.indexOf("%") === -1 && raw.indexOf("+") === -1) return raw
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "))
  } catch {
    return undefined
  }
}

/**
 * Parses `a=1&b=x%20y&a=2` into `{a: ["1", "2"], b: "x y"}` (`+` is a space). Fails with a message
 * on bad percent-encoding or too many parameters. The result has no prototype, so keys such as
 * `__proto__` are plain data.
 */
export const parseQuery = (raw: string, maxParameters: number): Either.Either<QueryValues, string> => {
  const values: QueryValues = Object.create(null)
  if (raw.length === 0) return Either.right(values)
  let count = 0
  for (const pair of raw.split("&")) {
    if (pair.length === 0) continue
    if (++count > maxParameters) return Either.left(`more than ${maxParameters} query parameters`)
    const equals = pair.indexOf("=")
    const key = decodeComponent(equals === -1 ? pair : pair.slice(0, equals))
    const value = decodeComponent(equals === -1 ? "" : pair.slice(equals + 1))
    if (key === undefined || value === undefined) {
      return Either.left(`bad percent-encoding in query parameter '${truncate(pair)}'`)
    }
    const previous = values[key]
    if (previous === undefined) values[key] = value
    else if (typeof previous === "string") values[key] = [previous, value]
    else previous.push(value)
  }
  return Either.right(values)
}

/** Shortens client input before it goes into an error message. */
export const truncate = (text: string, max = 64): string => (text.length <= max ? text : `${text.slice(0, max)}…`)

/**
 * A JSON-RPC answer's body parsed from its bytes. A large top-level array (a batch's answers) is
 * parsed an item at a time (`eachJsonItem`): V8 puts every string over 128 KB in its large-object
 * space, on pages mapped for it alone and returned at the next full collection, so decoding a
 * backfill's 400 KB batch answer into one string cost about 40 times what decoding it in
 * item-sized pieces costs on a 2-core VM (page faults), and drove a full collection about once a
 * second.
 */
const WHOLE_BODY_BYTES = 64 * 1024

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d

const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

const skipSpace = (bytes: Buffer, from: number, to = bytes.length): number => {
  let at = from
  while (at < to && isSpace(bytes[at])) at++
  return at
}

/** Just past the quote that closes the string opening at `at`; -1 when none does. */
const stringEnd = (bytes: Buffer, at: number): number => {
  let quote = bytes.indexOf(QUOTE, at + 1)
  while (quote !== -1) {
    let backslashes = 0
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return quote + 1
    quote = bytes.indexOf(QUOTE, quote + 1)
  }
  return -1
}

/**
 * Where each item of the top-level array in `bytes` starts and ends, found from its strings,
 * brackets and commas alone; null when `bytes` holds no top-level array. Each item is left for
 * JSON.parse to check, so a malformed body still fails as a whole one would.
 */
export const arrayItemRanges = (bytes: Buffer): Array<readonly [number, number]> | null => {
  const open = skipSpace(bytes, 0)
  if (bytes[open] !== OPEN_BRACKET) return null
  const ranges: Array<readonly [number, number]> = []
  let depth = 0
  let start = open + 1
  let at = start
  while (at < bytes.length) {
    const byte = bytes[at]
    if (byte === QUOTE) {
      at = stringEnd(bytes, at)
      if (at === -1) return null
      continue
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (depth === 0) {
        if (byte !== CLOSE_BRACKET || skipSpace(bytes, at + 1) !== bytes.length) return null
        if (ranges.length > 0 || skipSpace(bytes, start, at) < at) ranges.push([start, at])
        return ranges
      }
      depth--
    } else if (byte === COMMA && depth === 0) {
      ranges.push([start, at])
      start = at + 1
    }
    at++
  }
  return null
}

/**
 * Calls `visit` with each item of the top-level array `bytes` (UTF-8) holds, in order, a large
 * array's items parsed one at a time; false (and no call) when it holds another JSON value. Throws
 * a SyntaxError as JSON.parse does when it holds no JSON, possibly after visiting some items.
 */
export const eachJsonItem = (bytes: Uint8Array, visit: (item: unknown) => void): boolean => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const ranges = buffer.length > WHOLE_BODY_BYTES ? arrayItemRanges(buffer) : null
  if (ranges !== null) {
    for (const [start, end] of ranges) visit(JSON.parse(buffer.toString("utf8", start, end)))
    return true
  }
  const value: unknown = JSON.parse(buffer.toString("utf8"))
  if (!Array.isArray(value)) return false
  for (const item of value) visit(item)
  return true
}

/** The JSON value `bytes` (UTF-8) holds (a single call's answer: an object); throws a SyntaxError when it holds none. */
export const parseJsonBody = (bytes: Uint8Array): unknown =>
  JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"))

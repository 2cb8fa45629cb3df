/**
 * PostgreSQL's COPY text format: one line per row, columns separated by tabs, `\N` for null, and
 * backslash, tab, newline and carriage return escaped inside a value.
 */
const NEEDS_ESCAPE = /[\\\t\n\r]/
const ESCAPED = /[\\\t\n\r]/g
const ESCAPES: Readonly<Record<string, string>> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" }

export type CopyValue = string | number | boolean | Uint8Array | null

const copyField = (value: CopyValue): string => {
  if (value === null) return "\\N"
  switch (typeof value) {
    case "string":
      return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, (char) => ESCAPES[char]!) : value
    case "number":
      return String(value)
    case "boolean":
      return value ? "t" : "f"
    default:
      // bytea's hex input `\x…`, its backslash escaped for COPY
      return "\\\\x" + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")
  }
}

/** One row as a COPY text line (newline included). */
export const copyLine = (values: ReadonlyArray<CopyValue>): string => {
  let line = copyField(values[0] ?? null)
  for (let i = 1; i < values.length; i++) line += "\t" + copyField(values[i]!)
  return line + "\n"
}

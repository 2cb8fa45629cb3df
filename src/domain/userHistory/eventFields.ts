/** Reads the decoded event JSON of the log (integers as decimal strings). */
export const bigOf = (data: Readonly<Record<string, unknown>>, field: string): bigint | null => {
  const value = data[field]
  if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value)
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value)
  return null
}

export const textOf = (data: Readonly<Record<string, unknown>>, field: string): string | null => {
  const value = data[field]
  return typeof value === "string" ? value : null
}

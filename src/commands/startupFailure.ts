import { Cause, Option, Redacted } from "effect"

const CAUSES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ECONNRESET: "connection reset",
  "28P01": "authentication failed (wrong user or password)",
  "28000": "authentication failed (no access for this user, host or database)",
  "3D000": "database does not exist",
  "53300": "too many connections",
  "57P03": "the server is starting up or shutting down"
}

/** The error codes along a chain of causes (pg and Node errors carry `code`, SqlError carries `cause`). */
const codesIn = (error: unknown, depth = 0): Array<string> => {
  if (typeof error !== "object" || error === null || depth > 5) return []
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown }
  const own = typeof record.code === "string" ? [record.code] : []
  const nested = Array.isArray(record.errors) ? record.errors.flatMap((e) => codesIn(e, depth + 1)) : []
  return [...own, ...nested, ...codesIn(record.cause, depth + 1)]
}

const isSqlError = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "SqlError"

/**
 * One line for a database that cannot be used at start-up: host, port and cause, no stack and no
 * password. Null when the failure is something else.
 */
export const describeDatabaseFailure = (cause: Cause.Cause<unknown>, databaseUrl: Option.Option<Redacted.Redacted>): string | null => {
  if (Option.isNone(databaseUrl)) return null
  const failures = [...Cause.failures(cause), ...Cause.defects(cause)]
  const sqlError = failures.find(isSqlError)
  if (sqlError === undefined) return null
  const url = new URL(Redacted.value(databaseUrl.value) as string)
  const where = `${url.hostname}:${url.port || "5432"}`
  const database = decodeURIComponent(url.pathname.slice(1)) || "(default)"
  const code = codesIn(sqlError).find((c) => c in CAUSES)
  const reason = code === undefined ? (sqlError as { message?: string }).message ?? "failed" : CAUSES[code]!
  return `cannot use the database at DATABASE_URL (${where}, database ${database}, user ${decodeURIComponent(url.username) || "(default)"}): ${reason}`
}

/** Listeners the service could not open: their messages already name the address and the setting. */
const LISTEN_FAILURES = new Set(["HttpServerError", "MetricsListenerError"])

/** One line for a port that cannot be bound at start-up; null when the failure is something else. */
export const describeListenFailure = (cause: Cause.Cause<unknown>): string | null => {
  const failure = [...Cause.failures(cause)].find((error) =>
    typeof error === "object" && error !== null && LISTEN_FAILURES.has(String((error as { _tag?: unknown })._tag)))
  return failure === undefined ? null : String((failure as { message?: unknown }).message)
}

import createClient from "openapi-fetch"
import type { paths } from "../../client/openapi.ts"

/**
 * The gateway's API from the page, typed by the generated OpenAPI types. Same origin: the browser
 * sends the session cookie and `Origin` itself.
 */
export const api = createClient<paths>({ baseUrl: location.origin, credentials: "same-origin" })

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message)
  }
}

/** The success body, or an `ApiError` carrying the envelope's code and message. */
export const ok = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => {
  const { data, error, response } = await call
  if (response.ok && data !== undefined) return data
  const envelope = (error ?? {}) as { error?: string; message?: string }
  throw new ApiError(response.status, envelope.error ?? `HTTP_${response.status}`, envelope.message ?? response.statusText)
}

/** A message for the user from any failure. */
export const describe = (error: unknown): string =>
  error instanceof ApiError ? `${error.message} (${error.code})` : error instanceof Error ? error.message : String(error)

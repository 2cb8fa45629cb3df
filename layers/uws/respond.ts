import type { HttpResponse } from "uwebsockets"

const STATUS_TEXT: Record<number, string> = {
  200: "200 OK",
  400: "400 Bad Request",
  401: "401 Unauthorized",
  403: "403 Forbidden",
  404: "404 Not Found",
  405: "405 Method Not Allowed",
  413: "413 Payload Too Large",
  429: "429 Too Many Requests",
  500: "500 Internal Server Error",
  503: "503 Service Unavailable"
}

export const statusLine = (status: number): string => STATUS_TEXT[status] ?? String(status)

/** Writes a complete JSON response in one corked batch. */
export const writeJson = (
  res: HttpResponse,
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> = {}
): void => {
  res.cork(() => {
    res.writeStatus(statusLine(status))
    res.writeHeader("content-type", "application/json; charset=utf-8")
    for (const name in headers) res.writeHeader(name, headers[name]!)
    res.end(body)
  })
}

/** The error envelope every failure uses: `{success:false, error, message}`. */
export const errorBody = (code: string, message: string): string =>
  JSON.stringify({ success: false, error: code, message })

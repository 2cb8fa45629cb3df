import { Effect } from "effect"

export interface JsonResponse {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

/** `fetch` that reads the body as JSON (or `undefined` when empty), as an Effect. */
export const fetchJson = (url: string, init?: RequestInit): Effect.Effect<JsonResponse> =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text.length === 0 ? undefined : JSON.parse(text) }
  })

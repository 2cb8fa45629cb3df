import type { HttpResponse } from "uwebsockets"

/**
 * Collects a request body up to `limitBytes`. Exactly one of `onBody` / `onTooLarge` is called; the
 * caller must have attached `onAborted` (this is an asynchronous step).
 */
export const readBody = (
  res: HttpResponse,
  limitBytes: number,
  onBody: (body: Buffer) => void,
  onTooLarge: () => void
): void => {
  const chunks: Array<Buffer> = []
  let size = 0
  let finished = false
  res.onData((chunk, isLast) => {
    if (finished) return
    size += chunk.byteLength
    if (size > limitBytes) {
      finished = true
      onTooLarge()
      return
    }
    // uWS reuses the chunk's memory once this callback returns: copy it.
    chunks.push(Buffer.from(new Uint8Array(chunk)))
    if (isLast) {
      finished = true
      onBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
    }
  })
}

import http from "node:http"

export interface BytesResponse {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  /** The body exactly as sent: node:http does not decode a content coding. */
  readonly body: Buffer
}

/** A GET with exactly these headers (no `Accept-Encoding` unless given), its body as raw bytes. */
export const getBytes = (url: string, headers: Readonly<Record<string, string>> = {}): Promise<BytesResponse> =>
  new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on("error", reject)
    }).once("error", reject)
  })

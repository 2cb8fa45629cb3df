import net from "node:net"

export interface RawResponse {
  readonly status: number
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** The server closed the connection after this response (only known with `waitForClose`). */
  readonly closed: boolean
}

/**
 * Sends bytes exactly as given (no client-side normalisation: bad percent-encoding, odd methods,
 * oversized headers) and reads one response. Resolves `undefined` when the server closes without
 * answering (what uWS does with requests it cannot parse).
 */
export const rawRequest = (
  port: number,
  request: string | Buffer,
  options: {
    readonly timeoutMs?: number
    readonly waitForClose?: boolean
    /** The response to a HEAD has a Content-Length but no body. */
    readonly head?: boolean
  } = {}
): Promise<RawResponse | undefined> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1")
    let received = Buffer.alloc(0)
    let settled = false
    const finish = (value: RawResponse | undefined) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve(value)
    }
    const timeoutMs = options.timeoutMs ?? 5_000
    const timer = setTimeout(() => {
      settled = true
      socket.destroy()
      reject(new Error(`no complete response within ${timeoutMs} ms`))
    }, timeoutMs)
    const tryParse = (closed: boolean) => {
      const end = received.indexOf("\r\n\r\n")
      if (end === -1) return closed ? finish(undefined) : undefined
      const head = received.subarray(0, end).toString("latin1").split("\r\n")
      const status = Number(head[0]!.split(" ")[1])
      const headers: Record<string, string> = {}
      for (const line of head.slice(1)) {
        const colon = line.indexOf(":")
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
      const length = headers["content-length"] === undefined ? undefined : Number(headers["content-length"])
      const body = received.subarray(end + 4)
      if (options.head === true) return finish({ status, headers, body: "", closed })
      if (length !== undefined && body.length >= length && (closed || options.waitForClose !== true)) {
        return finish({ status, headers, body: body.subarray(0, length).toString("utf8"), closed })
      }
      if (closed) finish({ status, headers, body: body.toString("utf8"), closed })
    }
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, chunk])
      tryParse(false)
    })
    socket.on("end", () => tryParse(true))
    socket.on("close", () => tryParse(true))
    socket.on("error", () => tryParse(true))
    socket.write(request)
  })

/** `GET <target>` with a Host header and any extra header lines. */
export const rawGet = (port: number, target: string, extraHeaders: ReadonlyArray<string> = []) =>
  rawRequest(port, [`GET ${target} HTTP/1.1`, "Host: 127.0.0.1", ...extraHeaders, "", ""].join("\r\n"))

import net from "node:net"

/**
 * POST load over keep-alive raw sockets: each connection sends one request, waits for its complete
 * response, sends the next. Closed loop by default (latency from each request's write to its
 * response, so it includes queueing at saturation). With `ratePerSecond` the i-th request is due at
 * `i / rate` seconds and is never sent earlier; its latency runs from when it was due, so a server
 * that falls behind the rate is charged for the wait (no coordinated omission).
 */
export interface PostLoadResult {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Paced: the p99 from each request's actual write (the client's own timer lateness left out). */
  readonly p99FromWriteMs: number
  /** Paced: how late the client wrote requests after they were due, p99 (its timers and event loop). */
  readonly sendLateP99Ms: number
  readonly non200: number
}

const HEADER_END = Buffer.from("\r\n\r\n")
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i

const request = (path: string, body: string) =>
  Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  )

export const postLoad = async (options: {
  readonly port: number
  readonly connections: number
  /** The i-th request's path and body. */
  readonly next: (i: number) => { readonly path: string; readonly body: string }
  readonly total: number
  readonly ratePerSecond?: number
}): Promise<PostLoadResult> => {
  const dueAt = (index: number) => (options.ratePerSecond === undefined ? undefined : started + (index * 1000) / options.ratePerSecond)
  const latencies = new Float64Array(options.total)
  const fromWrite = new Float64Array(options.total)
  const late = new Float64Array(options.total)
  let issued = 0
  let done = 0
  let non200 = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: options.connections }, () =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect({ port: options.port, host: "127.0.0.1", noDelay: true })
        let pending: Buffer = Buffer.alloc(0)
        let sentAt = 0
        let writtenAt = 0
        let index = -1
        const send = () => {
          if (issued >= options.total) {
            socket.end()
            return resolve()
          }
          index = issued++
          const { body, path } = options.next(index)
          const due = dueAt(index)
          const now = performance.now()
          if (due !== undefined && due > now) {
            setTimeout(() => {
              // Timers may fire a little before `due` by this clock: then the latency runs from the write.
              writtenAt = performance.now()
              sentAt = Math.min(due, writtenAt)
              late[index] = Math.max(0, writtenAt - due)
              socket.write(request(path, body))
            }, due - now)
          } else {
            sentAt = due ?? now
            writtenAt = now
            late[index] = due === undefined ? 0 : now - due
            socket.write(request(path, body))
          }
        }
        socket.on("connect", send)
        socket.on("error", reject)
        socket.on("data", (chunk: Buffer) => {
          pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
          const end = pending.indexOf(HEADER_END)
          if (end === -1) return
          const length = Number(CONTENT_LENGTH.exec(pending.toString("latin1", 0, end))?.[1] ?? 0)
          if (pending.length < end + 4 + length) return
          if (pending.toString("latin1", 9, 12) !== "200") non200++
          const answeredAt = performance.now()
          latencies[index] = answeredAt - sentAt
          fromWrite[index] = answeredAt - writtenAt
          done++
          pending = pending.subarray(end + 4 + length)
          send()
        })
      })
    )
  )
  const seconds = (performance.now() - started) / 1000
  const percentile = (values: Float64Array, p: number) => {
    const sorted = values.subarray(0, done).slice().sort()
    return Number(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(3))
  }
  return {
    requestsPerSecond: Math.round(done / seconds),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    p99FromWriteMs: percentile(fromWrite, 99),
    sendLateP99Ms: percentile(late, 99),
    non200
  }
}

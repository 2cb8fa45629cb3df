import net from "node:net"

/**
 * A small HTTP/1.1 load client for benchmarks: keep-alive connections over raw sockets, a minimal
 * response parser (status line and Content-Length), and either closed-loop throughput (each
 * connection keeps `pipeline` requests in flight) or an open-loop fixed request rate: requests go
 * out on schedule whatever the server does (so a stalled server is not hidden), sent in 1 ms
 * batches, and latency runs from each request's write to its response.
 */

export interface ThroughputResult {
  readonly requestsPerSecond: number
  readonly responses: number
  readonly errors: number
  /** CPU this client used, as a share of one core: near 1 means the client, not the server, limited. */
  readonly clientCpu: number
}

export interface LatencyResult {
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  readonly achievedPerSecond: number
  readonly errors: number
}

interface Connection {
  readonly socket: net.Socket
  /** When each request still waiting for its response was written. */
  readonly sentAt: Array<number>
  /** Responses that were not 200. */
  errors: number
}

const HEADER_END = Buffer.from("\r\n\r\n")
const CONTENT_LENGTH = Buffer.from("\r\nContent-Length: ")
const CONTENT_LENGTH_ANY_CASE = /\r\ncontent-length:\s*(\d+)/i
const DIGIT_0 = 48

/** Content-Length of the head at [start, end): byte search first (uWS's spelling), regex otherwise. */
const contentLength = (buffer: Buffer, start: number, end: number): number => {
  const at = buffer.indexOf(CONTENT_LENGTH, start)
  if (at === -1 || at > end) {
    return Number(CONTENT_LENGTH_ANY_CASE.exec(buffer.toString("latin1", start, end))?.[1] ?? 0)
  }
  let length = 0
  for (let i = at + CONTENT_LENGTH.length; i < end; i++) {
    const digit = buffer[i]! - DIGIT_0
    if (digit < 0 || digit > 9) break
    length = length * 10 + digit
  }
  return length
}

/** Calls `onResponse` once per complete response on the socket (ok: status 200). */
const parseResponses = (socket: net.Socket, onResponse: (ok: boolean) => void): void => {
  let pending: Buffer = Buffer.alloc(0)
  socket.on("data", (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    let offset = 0
    for (;;) {
      const end = pending.indexOf(HEADER_END, offset)
      if (end === -1) break
      const next = end + 4 + contentLength(pending, offset, end)
      if (next > pending.length) break
      // "HTTP/1.1 200": the status code starts at byte 9.
      onResponse(pending[offset + 9] === 50 && pending[offset + 10] === DIGIT_0 && pending[offset + 11] === DIGIT_0)
      offset = next
    }
    pending = offset === 0 ? pending : pending.subarray(offset)
  })
}

const connect = (port: number): Promise<net.Socket> =>
  new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1", noDelay: true }, () => resolve(socket))
    socket.once("error", reject)
  })

/** Extra request headers (e.g. `x-api-key`), the same on every request. */
export type RequestHeaders = Readonly<Record<string, string>>

const requestBytes = (path: string, headers: RequestHeaders = {}) =>
  Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n${
      Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
    }\r\n`
  )

/** Closed loop: as many requests as the server answers, `connections` x `pipeline` in flight. */
export const measureThroughput = async (options: {
  readonly port: number
  readonly path: string
  readonly connections: number
  readonly pipeline: number
  readonly durationMs: number
  readonly headers?: RequestHeaders
}): Promise<ThroughputResult> => {
  const request = requestBytes(options.path, options.headers)
  const batch = Buffer.concat(Array.from({ length: options.pipeline }, () => request))
  const sockets = await Promise.all(Array.from({ length: options.connections }, () => connect(options.port)))
  let responses = 0
  let errors = 0
  let running = true
  const cpuBefore = process.cpuUsage()
  const started = process.hrtime.bigint()
  for (const socket of sockets) {
    let inBatch = 0
    parseResponses(socket, (ok) => {
      responses++
      if (!ok) errors++
      if (++inBatch === options.pipeline) {
        inBatch = 0
        if (running) socket.write(batch)
      }
    })
    socket.write(batch)
  }
  await new Promise((resolve) => setTimeout(resolve, options.durationMs))
  running = false
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const cpu = process.cpuUsage(cpuBefore)
  const counted = responses
  for (const socket of sockets) socket.destroy()
  return {
    requestsPerSecond: counted / seconds,
    responses: counted,
    errors,
    clientCpu: (cpu.user + cpu.system) / 1e6 / seconds
  }
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

/** Open loop: `ratePerSecond` requests spread over the connections, latency from write to response. */
export const measureLatency = async (options: {
  readonly port: number
  readonly path: string
  readonly connections: number
  readonly ratePerSecond: number
  readonly durationMs: number
  readonly headers?: RequestHeaders
}): Promise<LatencyResult> => {
  const request = requestBytes(options.path, options.headers)
  const sockets = await Promise.all(Array.from({ length: options.connections }, () => connect(options.port)))
  const connections: Array<Connection> = sockets.map((socket) => ({
    socket,
    errors: 0,
    sentAt: []
  }))
  const total = Math.floor((options.ratePerSecond * options.durationMs) / 1000)
  const latencies = new Float64Array(total)
  let received = 0
  const done = new Promise<void>((resolve) => {
    for (const connection of connections) {
      parseResponses(connection.socket, (ok) => {
        if (!ok) connection.errors++
        const sentAt = connection.sentAt.shift()!
        latencies[received++] = performance.now() - sentAt
        if (received === total) resolve()
      })
    }
  })
  const started = performance.now()
  const intervalMs = 1000 / options.ratePerSecond
  let sent = 0
  const tick = () => {
    const due = Math.min(total, Math.floor((performance.now() - started) / intervalMs) + 1)
    const now = performance.now()
    for (; sent < due; sent++) {
      const connection = connections[sent % connections.length]!
      connection.sentAt.push(now)
      connection.socket.write(request)
    }
    // A timer, not a busy loop: on a small machine a spinning client would steal the server's core.
    if (sent < total) setTimeout(tick, 1)
  }
  tick()
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, options.durationMs + 10_000))
  await Promise.race([done, timeout])
  const elapsedSeconds = (performance.now() - started) / 1000
  for (const connection of connections) connection.socket.destroy()
  const sorted = latencies.subarray(0, received).sort()
  return {
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
    achievedPerSecond: received / elapsedSeconds,
    errors: connections.reduce((sum, connection) => sum + connection.errors, 0) + (total - received)
  }
}

import { once } from "node:events"
import { startTsWorker } from "../../tsWorker.ts"
import type { PostLoadJob, PostLoadResult } from "./postLoadWorker.ts"

export type { PostLoadResult } from "./postLoadWorker.ts"

const request = (path: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

/**
 * POST load over keep-alive raw sockets: each connection sends one request, waits for its complete
 * response, sends the next. Closed loop by default (latency from each request's write to its
 * response, so it includes queueing at saturation). With `ratePerSecond` the i-th request is due at
 * `i / rate` seconds and is never sent earlier; its latency runs from when it was due, so a server
 * that falls behind the rate is charged for the wait (no coordinated omission).
 *
 * The client runs in a worker thread of its own, with every request's bytes made before the clock
 * starts: a benchmark process's heap (a server's worth of modules, its fixtures) is collected in
 * pauses of 5-15 ms that would otherwise delay the client's writes and reads and count as latency.
 */
export const postLoad = async (options: {
  readonly port: number
  readonly connections: number
  /** The i-th request's path and body. */
  readonly next: (i: number) => { readonly path: string; readonly body: string }
  readonly total: number
  readonly ratePerSecond?: number
}): Promise<PostLoadResult> => {
  const requests = Array.from({ length: options.total }, (_, i) => {
    const { body, path } = options.next(i)
    return Buffer.from(request(path, body))
  })
  const offsets = new Uint32Array(options.total + 1)
  requests.forEach((bytes, i) => (offsets[i + 1] = offsets[i]! + bytes.length))
  const job: PostLoadJob = {
    port: options.port,
    connections: options.connections,
    ratePerSecond: options.ratePerSecond,
    bytes: Buffer.concat(requests),
    offsets
  }
  const worker = startTsWorker(new URL("./postLoadWorker.ts", import.meta.url), { workerData: job })
  try {
    const [message] = (await once(worker, "message")) as [{ readonly result?: PostLoadResult; readonly error?: string }]
    if (message.result === undefined) throw new Error(`load client failed: ${message.error}`)
    return message.result
  } finally {
    await worker.terminate()
  }
}

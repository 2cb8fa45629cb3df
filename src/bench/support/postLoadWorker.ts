import net from "node:net"
import { parentPort, workerData } from "node:worker_threads"

export interface PostLoadResult {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  /** Paced: the p99 from each request's actual write (the client's own timer lateness left out). */
  readonly p99FromWriteMs: number
  /** Paced: how late the client wrote requests after they were due, p99 (its timers and event loop). */
  readonly sendLateP99Ms: number
  readonly non200: number
}

/** What `postLoad` hands its worker: every request's bytes, laid end to end. */
export interface PostLoadJob {
  readonly port: number
  readonly connections: number
  readonly ratePerSecond: number | undefined
  readonly bytes: Uint8Array
  /** Request i is bytes[offsets[i], offsets[i + 1]). */
  readonly offsets: Uint32Array
}

const HEADER_END = Buffer.from("\r\n\r\n")
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i

const runLoad = async (job: PostLoadJob): Promise<PostLoadResult> => {
  const total = job.offsets.length - 1
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength)
  const requestOf = (index: number) => bytes.subarray(job.offsets[index]!, job.offsets[index + 1]!)
  const dueAt = (index: number) => (job.ratePerSecond === undefined ? undefined : started + (index * 1000) / job.ratePerSecond)
  const latencies = new Float64Array(total)
  const fromWrite = new Float64Array(total)
  const late = new Float64Array(total)
  let issued = 0
  let done = 0
  let non200 = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: job.connections }, () =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect({ port: job.port, host: "127.0.0.1", noDelay: true })
        let pending: Buffer = Buffer.alloc(0)
        let sentAt = 0
        let writtenAt = 0
        let index = -1
        const send = () => {
          if (issued >= total) {
            socket.end()
            return resolve()
          }
          index = issued++
          const request = requestOf(index)
          const due = dueAt(index)
          const now = performance.now()
          if (due !== undefined && due > now) {
            setTimeout(() => {
              // Timers may fire a little before `due` by this clock: then the latency runs from the write.
              writtenAt = performance.now()
              sentAt = Math.min(due, writtenAt)
              late[index] = Math.max(0, writtenAt - due)
              socket.write(request)
            }, due - now)
          } else {
            sentAt = due ?? now
            writtenAt = now
            late[index] = due === undefined ? 0 : now - due
            socket.write(request)
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
    maxMs: percentile(latencies, 100),
    p99FromWriteMs: percentile(fromWrite, 99),
    sendLateP99Ms: percentile(late, 99),
    non200
  }
}

runLoad(workerData as PostLoadJob).then(
  (result) => parentPort!.postMessage({ result }),
  (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) })
)

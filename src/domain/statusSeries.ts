import type { ProjectionPhase, ProjectionStatus } from "./status.ts"

/** One sample of the gateway's state for the ops page's charts. */
export interface StatusSample {
  /** Unix seconds. */
  readonly at: number
  readonly status: ProjectionPhase
  readonly lagSlots: number | null
  /** Seconds between `at` and the block time of the projected slot (grows while the projection stands still). */
  readonly lagSeconds: number | null
  /** HTTP requests answered per second since the previous sample. */
  readonly requestsPerSecond: number
  readonly wsConnections: number
}

/** Counters of the transport, read at each sample. */
export interface TrafficReading {
  readonly requests: number
  readonly wsConnections: number
}

/**
 * The last `capacity` samples, oldest first: a ring buffer, so that memory stays fixed however long
 * the process runs. Pure; the sampler calls `record` on a schedule.
 */
export class StatusSeries {
  readonly #samples: Array<StatusSample | undefined>
  #next = 0
  #size = 0
  #previous: { readonly at: number; readonly requests: number } | null = null

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`capacity ${capacity} is not a positive integer`)
    this.#samples = new Array(capacity)
  }

  record(status: ProjectionStatus, traffic: TrafficReading, nowMillis: number): StatusSample {
    const at = Math.floor(nowMillis / 1000)
    const previous = this.#previous
    const elapsed = previous === null ? 0 : nowMillis / 1000 - previous.at
    const requestsPerSecond = elapsed > 0 ? Math.round(((traffic.requests - previous!.requests) / elapsed) * 10) / 10 : 0
    this.#previous = { at: nowMillis / 1000, requests: traffic.requests }
    const blockTime = status.asOf?.blockTime ?? null
    const sample: StatusSample = {
      at,
      status: status.status,
      lagSlots: status.lagSlots,
      lagSeconds: blockTime === null ? null : Math.max(0, at - blockTime),
      requestsPerSecond: Math.max(0, requestsPerSecond),
      wsConnections: traffic.wsConnections
    }
    this.#samples[this.#next] = sample
    this.#next = (this.#next + 1) % this.capacity
    this.#size = Math.min(this.#size + 1, this.capacity)
    return sample
  }

  /** Oldest first. */
  samples(): ReadonlyArray<StatusSample> {
    const out: Array<StatusSample> = []
    const start = (this.#next - this.#size + this.capacity) % this.capacity
    for (let i = 0; i < this.#size; i++) out.push(this.#samples[(start + i) % this.capacity]!)
    return out
  }
}

import type { Faults } from "../faults.ts"

/** A subscriber's socket as the notification pipeline sees it. */
export interface Connection {
  readonly id: number
  /** Sends the messages in order, in one corked write; a no-op once the socket closed. */
  readonly sendBatch: (messages: ReadonlyArray<string>) => void
}

interface Delayed {
  readonly dueAtMs: number
  readonly items: ReadonlyArray<readonly [Connection, string]>
}

/**
 * Notifications on their way out. Everything queued in one synchronous run (a transaction, a
 * keeper step with many transactions) leaves together at the next microtask, one corked write
 * per socket. Faults act here: drops when queued, stalls and delays when flushed; order is kept.
 */
export class Outbox {
  private pending: Array<readonly [Connection, string]> = []
  private flushScheduled = false
  private stalled: Array<readonly [Connection, string]> = []
  private readonly delayed: Delayed[] = []
  private delayTimer: NodeJS.Timeout | undefined

  constructor(private readonly faults: Faults) {
    faults.listen({
      closeSockets: () => undefined,
      stallEnded: (release) => {
        const held = this.stalled
        this.stalled = []
        if (release) this.route(held)
      }
    })
  }

  enqueue(connection: Connection, message: string): void {
    if (this.faults.shouldDropNotification()) return
    this.pending.push([connection, message])
    if (!this.flushScheduled) {
      this.flushScheduled = true
      queueMicrotask(() => this.flush())
    }
  }

  /** Delivers what is queued now (tests and shutdown call this; normally a microtask does). */
  flush(): void {
    this.flushScheduled = false
    const items = this.pending
    this.pending = []
    if (items.length > 0) this.route(items)
  }

  close(): void {
    if (this.delayTimer !== undefined) clearTimeout(this.delayTimer)
    this.delayed.length = 0
    this.stalled = []
    this.pending = []
  }

  private route(items: ReadonlyArray<readonly [Connection, string]>): void {
    const { stall, delayMs } = this.faults.state
    if (stall !== undefined) {
      for (const item of items) this.stalled.push(item)
      return
    }
    if (delayMs > 0 || this.delayed.length > 0) {
      this.delayed.push({ dueAtMs: Date.now() + delayMs, items })
      this.armDelayTimer()
      return
    }
    deliver(items)
  }

  private armDelayTimer(): void {
    if (this.delayTimer !== undefined || this.delayed.length === 0) return
    const wait = Math.max(0, this.delayed[0]!.dueAtMs - Date.now())
    this.delayTimer = setTimeout(() => {
      this.delayTimer = undefined
      const now = Date.now()
      while (this.delayed.length > 0 && this.delayed[0]!.dueAtMs <= now) deliver(this.delayed.shift()!.items)
      this.armDelayTimer()
    }, wait)
  }
}

const deliver = (items: ReadonlyArray<readonly [Connection, string]>): void => {
  const byConnection = new Map<Connection, string[]>()
  for (const [connection, message] of items) {
    const messages = byConnection.get(connection)
    if (messages === undefined) byConnection.set(connection, [message])
    else messages.push(message)
  }
  for (const [connection, messages] of byConnection) connection.sendBatch(messages)
}

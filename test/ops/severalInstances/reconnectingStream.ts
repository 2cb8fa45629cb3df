import WebSocket from "ws"

export type Frame = Record<string, any>

/** One connection's life: the frames it got, from its `subscribed` snapshots on. */
export interface StreamSession {
  readonly openedAt: number
  closedAt: number | null
  /** The close code and reason the connection ended with. */
  closedWith: string | null
  readonly frames: Array<Frame>
}

/**
 * A partner's WebSocket subscriber that reconnects (after `retryMs`) whenever its connection
 * closes, subscribing again to the same topics: every session starts with fresh snapshots.
 */
export class ReconnectingStream {
  readonly sessions: Array<StreamSession> = []
  #socket: WebSocket | null = null
  #stopped = false

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly topics: ReadonlyArray<string>,
    private readonly retryMs = 200
  ) {
    this.#connect()
  }

  #connect(): void {
    if (this.#stopped) return
    const session: StreamSession = { openedAt: Date.now(), closedAt: null, closedWith: null, frames: [] }
    const socket = new WebSocket(this.url, { headers: this.headers })
    this.#socket = socket
    socket.on("open", () => {
      this.sessions.push(session)
      socket.send(JSON.stringify({ op: "subscribe", id: "partner", topics: this.topics }))
    })
    socket.on("message", (data: Buffer) => session.frames.push(JSON.parse(data.toString("utf8")) as Frame))
    socket.on("error", (error: Error) => (session.closedWith = error.message))
    socket.on("close", (code: number, reason: Buffer) => {
      session.closedAt = Date.now()
      session.closedWith = `${code} ${reason.toString("utf8")} ${session.closedWith ?? ""}`.trim()
      if (!this.#stopped) setTimeout(() => this.#connect(), this.retryMs)
    })
  }

  stop(): void {
    this.#stopped = true
    this.#socket?.terminate()
  }
}

/**
 * Per topic of a session: whether it began with a snapshot and every update after it followed with
 * the next `seq` (no gap, no repeat). Returns the problems found and the updates counted.
 */
export const seqProblems = (session: StreamSession, topics: ReadonlyArray<string>) => {
  const problems: Array<string> = []
  let updates = 0
  for (const topic of topics) {
    const frames = session.frames.filter((frame) => frame.topic === topic || (frame.type === "resync" && frame.topics?.includes(topic)))
    const first = frames[0]
    if (first?.type !== "subscribed") {
      problems.push(`${topic}: no snapshot first (got ${first?.type})`)
      continue
    }
    let seq = first.seq as number
    for (const frame of frames.slice(1)) {
      if (frame.type === "resync") {
        problems.push(`${topic}: resync`)
        break
      }
      if (frame.type !== "update" || frame.seq !== seq + 1) {
        problems.push(`${topic}: ${frame.type} seq ${frame.seq} after ${seq}`)
        break
      }
      seq = frame.seq
      updates++
    }
  }
  return { problems, updates }
}

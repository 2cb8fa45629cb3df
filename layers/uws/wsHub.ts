import type uws from "uwebsockets"
import { type Effect, Either, type Exit } from "effect"
import type { UsdPrice } from "../../src/domain/usdPrice.ts"
import type { Projection } from "../../services/Projection.ts"
import { isLive, type ProjectionStatus } from "../../src/domain/status.ts"
import type { WsLimits } from "../../src/ws/limits.ts"
import {
  CLOSE_BACKPRESSURE,
  type ClientMessage,
  decodeClientMessage,
  errorFrame,
  isProtocolError,
  pongFrame,
  type ProtocolError,
  resyncFrame,
  statusFrame,
  subscribedFrame,
  unsubscribedFrame,
  updateFrame
} from "../../src/ws/protocol.ts"
import { UpdateFrameWriter } from "../../src/ws/updateFrameWriter.ts"
import { dataTopicValue, statusValue } from "../../src/ws/snapshots.ts"
import { isDecided, refusalFrame, type SubscribeMeter } from "./wsAdmission.ts"
import { TopicBook } from "../../src/ws/topicBook.ts"
import { TopicJsonReader } from "../../src/ws/topicJson.ts"
import type { ProjectionState } from "../../src/domain/projection/state.ts"
import { isDataTopic, parseTopic, type Topic } from "../../src/ws/topics.ts"
import { noWsMeter, type WsMeter } from "../../src/telemetry/wsMeter.ts"

/** What uWS keeps per socket. */
export interface Connection {
  readonly keyId: string
  readonly topics: Map<string, Topic>
  /** Followed data topics waiting for a snapshot (projection not live, or resyncing). */
  readonly held: Set<string>
  resyncing: boolean
  readonly meter: SubscribeMeter
  /** Messages that came while a subscribe's key check was waiting, answered in order after it. */
  waiting: Array<ClientMessage | ProtocolError> | null
}

/** Messages a connection may send while a key check is waiting; more get `TOO_MANY_PENDING`. */
const MAX_WAITING = 64

export type Socket = uws.WebSocket<Connection>

type SubscribeMessage = Extract<ClientMessage, { readonly op: "subscribe" }>

/** Followed topics re-checked per turn of the event loop after chain time advanced. */
const REFRESH_SLICE = 64

/** Every connection is on it, for `status` broadcasts on phase changes. */
const ALL_CONNECTIONS = "#all"

/**
 * The stream's server side: connections, their topics, snapshots and the fan-out of updates. All of
 * it runs on the JS thread between uWS callbacks and fan-out rounds, so a snapshot and the updates
 * after it can never interleave.
 */
export class WsHub {
  readonly book = new TopicBook()
  readonly #reader: TopicJsonReader
  readonly #sockets = new Set<Socket>()
  readonly #connectionsByKey = new Map<string, number>()
  #live: boolean
  /** Instrumentation (benchmarks, tests): called right after an update is handed to uWS publish. */
  onPublish: ((topic: string) => void) | null = null
  /** The most unsent bytes any connection held at a backpressure check (tests: memory stays bounded). */
  maxBufferedBytes = 0

  constructor(
    readonly app: uws.TemplatedApp,
    readonly projection: Projection["Type"],
    readonly priceOf: (mint: string) => UsdPrice | null,
    readonly limits: WsLimits,
    /** Runs a key check that must wait (a key record not cached, a remote quota store). */
    readonly runLater: (effect: Effect.Effect<unknown, unknown>, onExit: (exit: Exit.Exit<unknown, unknown>) => void) => void,
    readonly metrics: WsMeter = noWsMeter
  ) {
    this.#live = isLive(projection.currentStatus())
    this.#reader = new TopicJsonReader(priceOf)
  }

  connectionsOf(keyId: string): number {
    return this.#connectionsByKey.get(keyId) ?? 0
  }

  get connectionCount(): number {
    return this.#sockets.size
  }

  open(ws: Socket): void {
    const { keyId } = ws.getUserData()
    this.#connectionsByKey.set(keyId, this.connectionsOf(keyId) + 1)
    this.#sockets.add(ws)
    ws.subscribe(ALL_CONNECTIONS)
    this.metrics.opened()
  }

  close(ws: Socket, code: number): void {
    const connection = ws.getUserData()
    this.#sockets.delete(ws)
    this.metrics.closed(code, connection.topics.size)
    for (const topic of connection.topics.values()) this.book.unfollow(topic)
    connection.topics.clear()
    connection.held.clear()
    const count = this.connectionsOf(connection.keyId) - 1
    if (count > 0) this.#connectionsByKey.set(connection.keyId, count)
    else this.#connectionsByKey.delete(connection.keyId)
  }

  message(ws: Socket, message: ArrayBuffer): void {
    const decoded: ClientMessage | ProtocolError = message.byteLength > this.limits.maxMessageBytes
      ? { code: "MESSAGE_TOO_LARGE", message: `messages are limited to ${this.limits.maxMessageBytes} bytes` }
      : decodeClientMessage(Buffer.from(message).toString("utf8"))
    const waiting = ws.getUserData().waiting
    if (waiting === null) return this.#handle(ws, decoded)
    if (waiting.length < MAX_WAITING) return void waiting.push(decoded)
    ws.send(errorFrame({ code: "TOO_MANY_PENDING", message: `at most ${MAX_WAITING} messages may wait for a subscribe's key check` }))
  }

  #handle(ws: Socket, decoded: ClientMessage | ProtocolError): void {
    if (!isProtocolError(decoded) && decoded.op === "subscribe") {
      const admission = ws.getUserData().meter()
      if (!isDecided(admission)) return this.#admitLater(ws, decoded, admission)
      ws.cork(() => this.#subscribeIfAdmitted(ws, decoded, admission))
    } else {
      ws.cork(() => {
        if (isProtocolError(decoded)) ws.send(errorFrame(decoded))
        else if (decoded.op === "ping") ws.send(pongFrame)
        else this.#unsubscribe(ws, decoded.id, decoded.topics)
      })
    }
    // Snapshots are sent directly, not published: a client that asks for many without reading is checked too.
    if (this.#sockets.has(ws)) this.#checkOne(ws)
  }

  #subscribeIfAdmitted(ws: Socket, decoded: SubscribeMessage, admission: Exit.Exit<unknown, unknown>): void {
    const refusal = refusalFrame(decoded.id, admission)
    if (refusal === null) this.#subscribe(ws, decoded.id, decoded.topics)
    else ws.send(refusal)
  }

  /** The connection's later messages wait for the check, so that answers keep the order of requests. */
  #admitLater(ws: Socket, decoded: SubscribeMessage, admission: Effect.Effect<unknown, unknown>): void {
    const connection = ws.getUserData()
    connection.waiting = []
    this.runLater(admission, (exit) => {
      // A closed socket must not be touched.
      if (!this.#sockets.has(ws)) return
      const queued = connection.waiting ?? []
      connection.waiting = null
      ws.cork(() => this.#subscribeIfAdmitted(ws, decoded, exit))
      this.#checkOne(ws)
      for (const next of queued) {
        if (!this.#sockets.has(ws)) return
        // A message answered just now may have started another check.
        const waitingAgain = connection.waiting as Connection["waiting"]
        if (waitingAgain !== null) waitingAgain.push(next)
        else this.#handle(ws, next)
      }
    })
  }

  #subscribe(ws: Socket, id: unknown, names: ReadonlyArray<string>): void {
    const connection = ws.getUserData()
    const topics: Array<Topic> = []
    for (const name of names) {
      const topic = parseTopic(name)
      if (topic === null) {
        ws.send(errorFrame({
          id,
          code: "UNKNOWN_TOPIC",
          message: `unknown topic ${JSON.stringify(name.slice(0, 120))}; expected vault:<address>, user:<vault>:<wallet>, referrer:<address>, status or slots`
        }))
        return
      }
      topics.push(topic)
    }
    const added = topics.filter((topic) => !connection.topics.has(topic.name)).length
    if (connection.topics.size + added > this.limits.maxTopicsPerConnection) {
      ws.send(errorFrame({
        id,
        code: "TOO_MANY_TOPICS",
        message: `a connection may follow at most ${this.limits.maxTopicsPerConnection} topics (it follows ${connection.topics.size})`
      }))
      return
    }
    let announcedStatus = false
    for (const topic of topics) {
      if (!connection.topics.has(topic.name)) {
        connection.topics.set(topic.name, topic)
        this.book.follow(topic)
        this.metrics.subscribed(1)
      }
      if (!this.#sendSnapshot(ws, id, topic) && !announcedStatus) {
        // Held until the projection is live: say why instead of sending zeros.
        ws.send(statusFrame(statusValue(this.projection.currentStatus()).data))
        announcedStatus = true
      }
    }
  }

  #unsubscribe(ws: Socket, id: unknown, names: ReadonlyArray<string>): void {
    const connection = ws.getUserData()
    const removed: Array<string> = []
    for (const name of names) {
      const topic = connection.topics.get(name)
      if (topic === undefined) continue
      connection.topics.delete(name)
      connection.held.delete(name)
      ws.unsubscribe(name)
      this.book.unfollow(topic)
      this.metrics.subscribed(-1)
      removed.push(name)
    }
    ws.send(unsubscribedFrame(id, removed))
  }

  /**
   * Subscribes the socket to the topic's updates and sends its snapshot, or holds the topic (not
   * live, or the connection is resyncing). False only when held because the projection is not live,
   * which the caller explains with a `status`. An unknown vault gets an error and is dropped.
   */
  #sendSnapshot(ws: Socket, id: unknown, topic: Topic): boolean {
    const connection = ws.getUserData()
    if (topic.kind === "status") {
      const { asOf, data } = statusValue(this.projection.currentStatus())
      ws.subscribe(topic.name)
      ws.send(subscribedFrame(id, topic.name, this.book.currentSeq(topic.name), asOf, data))
      return true
    }
    const value = connection.resyncing || !this.#live
      ? Either.left(null)
      : this.projection.readSync((state) => dataTopicValue(state, topic, this.priceOf))
    if (Either.isLeft(value)) {
      connection.held.add(topic.name)
      ws.unsubscribe(topic.name)
      return connection.resyncing
    }
    connection.held.delete(topic.name)
    if (value.right === undefined) {
      connection.topics.delete(topic.name)
      this.book.unfollow(topic)
      this.metrics.subscribed(-1)
      ws.send(errorFrame({ id, code: "VAULT_NOT_FOUND", message: `no vault ${(topic as { vault: string }).vault} on the configured program` }))
      return true
    }
    ws.subscribe(topic.name)
    // Before the topic's first update, its followers have this value: the baseline updates differ from.
    if (!this.book.lastData.has(topic.name)) this.book.lastData.record(topic.name, Buffer.from(JSON.stringify(value.right.data)))
    ws.send(subscribedFrame(id, topic.name, this.book.currentSeq(topic.name), value.right.asOf, value.right.data))
    return true
  }

  #releaseHeld(ws: Socket): void {
    const connection = ws.getUserData()
    if (connection.held.size === 0) return
    ws.cork(() => {
      for (const name of [...connection.held]) {
        const topic = connection.topics.get(name)
        if (topic !== undefined) this.#sendSnapshot(ws, null, topic)
      }
    })
  }

  /**
   * One fan-out round, in the topics' order: each topic whose value differs from its last update is
   * encoded once and published to its followers (a change that leaves a topic's value as it was
   * sends nothing).
   */
  publishUpdates(topics: Iterable<string>): void {
    if (!this.#live) return
    this.projection.readSync((state) => {
      for (const name of topics) {
        const topic = this.book.topic(name)
        if (topic !== undefined) this.#publishIfChanged(state, topic)
      }
    })
    this.checkBackpressure()
  }

  #publishIfChanged(state: ProjectionState, topic: Topic): void {
    const value = this.#reader.read(state, topic)
    if (value === undefined) return
    const data = this.#frames.writeData(value.json)
    if (this.book.lastData.equals(topic.name, data)) return
    this.book.lastData.record(topic.name, data)
    this.app.publish(topic.name, this.#frames.frame(this.#topicJson(topic), this.book.nextSeq(topic.name), this.#asOfJson(value.asOf)))
    this.metrics.published()
    this.onPublish?.(topic.name)
  }

  // A round's frames share the asOf, and a topic's name is encoded for every update of it.
  readonly #topicJsons = new WeakMap<Topic, string>()
  readonly #frames = new UpdateFrameWriter()
  #lastAsOf: unknown = undefined
  #lastAsOfJson = ""

  #topicJson(topic: Topic): string {
    let json = this.#topicJsons.get(topic)
    if (json === undefined) this.#topicJsons.set(topic, json = JSON.stringify(topic.name))
    return json
  }

  #asOfJson(asOf: unknown): string {
    if (asOf !== this.#lastAsOf) {
      this.#lastAsOf = asOf
      this.#lastAsOfJson = JSON.stringify(asOf)
    }
    return this.#lastAsOfJson
  }

  /**
   * When chain time advances (a newer block time: about once a second; each newer slot when the
   * block time is unknown), the followed values that move without any account changing (a vault's
   * oracle age, a position's fee estimate, USD values as prices move or go stale): published when
   * they differ, so that a topic's last update equals the REST read. One pass over the followed
   * topics per second of chain time, in slices between which the event loop runs (a pass over many
   * topics must not hold up the updates of the next notifications).
   */
  #refreshOnChainTime(status: ProjectionStatus): void {
    const asOf = status.asOf
    if (!this.#live || asOf === null) return
    const time = asOf.blockTime === null ? `slot ${asOf.slot}` : `time ${asOf.blockTime}`
    if (time === this.#lastRefreshTime) return
    this.#lastRefreshTime = time
    for (const topic of this.book.topics()) {
      if (topic.kind === "vault" || topic.kind === "user" || topic.kind === "referrer") this.#refreshPending.add(topic.name)
    }
    this.#scheduleRefresh()
  }

  readonly #refreshPending = new Set<string>()
  #refreshScheduled = false
  #closed = false

  #scheduleRefresh(): void {
    if (this.#refreshScheduled || this.#refreshPending.size === 0) return
    this.#refreshScheduled = true
    setImmediate(this.#refreshSlice)
  }

  readonly #refreshSlice = (): void => {
    this.#refreshScheduled = false
    const checked = this.#closed || !this.#live ? Either.left(null) : this.projection.readSync((state) => {
      let count = 0
      for (const name of this.#refreshPending) {
        this.#refreshPending.delete(name)
        const topic = this.book.topic(name)
        if (topic !== undefined) this.#publishIfChanged(state, topic)
        if (++count === REFRESH_SLICE) break
      }
    })
    // Not live any more: held topics get fresh snapshots when it is again, nothing to re-check.
    if (Either.isLeft(checked)) return this.#refreshPending.clear()
    this.checkBackpressure()
    this.#scheduleRefresh()
  }

  statusChanged(status: ProjectionStatus): void {
    const wasLive = this.#live
    const phaseChanged = wasLive !== isLive(status) || this.#lastPhase !== status.status
    this.#lastPhase = status.status
    this.#live = isLive(status)
    const value = statusValue(status)
    if (this.book.isFollowed("status")) {
      this.app.publish("status", updateFrame("status", this.book.nextSeq("status"), value.asOf, value.data))
    }
    if (phaseChanged) this.app.publish(ALL_CONNECTIONS, statusFrame(value.data))
    if (!wasLive && this.#live) {
      for (const ws of this.#sockets) if (!ws.getUserData().resyncing) this.#releaseHeld(ws)
    } else if (wasLive && !this.#live) {
      for (const ws of this.#sockets) this.#hold(ws)
    }
    this.#refreshOnChainTime(status)
    this.checkBackpressure()
  }

  #lastPhase: string | null = null
  #lastRefreshTime: string | null = null

  #hold(ws: Socket): void {
    const connection = ws.getUserData()
    for (const topic of connection.topics.values()) {
      if (!isDataTopic(topic) || connection.held.has(topic.name)) continue
      connection.held.add(topic.name)
      ws.unsubscribe(topic.name)
    }
  }

  /** A connection over the soft limit gets `resync` and no more updates until it drains. */
  checkBackpressure(): void {
    for (const ws of this.#sockets) this.#checkOne(ws)
  }

  #checkOne(ws: Socket): void {
    const buffered = ws.getBufferedAmount()
    if (buffered > this.maxBufferedBytes) this.maxBufferedBytes = buffered
    if (buffered <= this.limits.backpressureBytes) return
    if (buffered > this.limits.closeAboveBytes) return this.closeSlow(ws)
    const connection = ws.getUserData()
    if (connection.resyncing) return
    connection.resyncing = true
    const before = new Set(connection.held)
    this.#hold(ws)
    const paused = [...connection.held].filter((name) => !before.has(name))
    ws.send(resyncFrame(paused))
    this.metrics.resynced()
  }

  closeSlow(ws: Socket): void {
    if (!this.#sockets.delete(ws)) return
    ws.end(CLOSE_BACKPRESSURE, "backpressure limit")
  }

  /**
   * uWS `dropped`: a publish or send skipped this socket (over `maxBackpressure`). Called from inside
   * that publish or send, where ending the socket is unsafe: it is closed right after.
   */
  dropped(ws: Socket): void {
    setImmediate(() => this.closeSlow(ws))
  }

  /** uWS `drain`: once a resyncing connection is well below the limit, fresh snapshots. */
  drained(ws: Socket): void {
    const connection = ws.getUserData()
    if (!connection.resyncing || ws.getBufferedAmount() > this.limits.backpressureBytes / 2) return
    connection.resyncing = false
    if (this.#live) this.#releaseHeld(ws)
  }

  /** Server shutdown. */
  closeAll(): void {
    this.#closed = true
    for (const ws of [...this.#sockets]) ws.end(1001, "server shutting down")
  }
}

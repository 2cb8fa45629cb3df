import { Worker } from "node:worker_threads"
import { PACKET_DATA_SIZE } from "../runtime/message.ts"
import { type Keypair, PKCS8_ED25519_PREFIX } from "./keypair.ts"

/**
 * Ed25519 signing on a second thread, so that the sandbox's own transactions are signed while they
 * execute: generating a first start's history signs some 36,000 transactions (about 50 us each on
 * a 2-core machine, a fifth of the generation), and the other core is mostly idle meanwhile.
 *
 * Callers stay synchronous: `begin` hands one message to the thread (through shared memory, one
 * request at a time) and `finish` takes the signatures, waiting only for a signature the thread is
 * still making. A request the thread has not picked up yet is signed here instead, so a thread that
 * is still starting, or gone, never holds a transaction up. The thread exits after a second
 * without requests and is started again on the next one; signatures are Ed25519's (deterministic),
 * so which thread signed changes nothing.
 */
const MAX_SIGNERS = 4
const SEED_BYTES = 32
const SIGNATURE_BYTES = 64
/**
 * After a request the thread keeps polling this long before it sleeps: while history is generated
 * requests come every few hundred microseconds, and waking a sleeping thread (a futex syscall on
 * each side) cost more than half of what signing on the thread saved.
 */
const SPIN_MS = 2
const IDLE_EXIT_MS = 1_000
/** A thread that took a request and did not answer in this long is given up on. */
const ANSWER_TIMEOUT_MS = 2_000
/** How long the caller polls for a signature being made before it sleeps. */
const COLLECT_SPIN_MS = 0.5

// ctrl[STATE] values
const IDLE = 0
const WRITING = 1
const POSTED = 2
const CLAIMED = 3
const DONE = 4
const CLOSED = 5
const FAILED = 6

// Int32 slots of the shared buffer's head; a side that sleeps says so, and is woken only then
const STATE = 0
const READY = 1
const SIGNERS = 2
const MESSAGE_LENGTH = 3
const THREAD_SLEEPING = 4
const CALLER_SLEEPING = 5
const HEAD_INTS = 8
const SEEDS_AT = HEAD_INTS * 4
const MESSAGE_AT = SEEDS_AT + MAX_SIGNERS * SEED_BYTES
const SIGNATURES_AT = MESSAGE_AT + PACKET_DATA_SIZE
const BUFFER_BYTES = SIGNATURES_AT + MAX_SIGNERS * SIGNATURE_BYTES

// The thread's code: plain JavaScript with node:crypto only, so it needs no TypeScript loader.
const THREAD_SOURCE = `
const { workerData } = require("node:worker_threads")
const { createPrivateKey, sign } = require("node:crypto")
const [IDLE, POSTED, CLAIMED, DONE, CLOSED, FAILED] = ${JSON.stringify([IDLE, POSTED, CLAIMED, DONE, CLOSED, FAILED])}
const [STATE, READY, SIGNERS, MESSAGE_LENGTH, THREAD_SLEEPING, CALLER_SLEEPING] = ${
  JSON.stringify([STATE, READY, SIGNERS, MESSAGE_LENGTH, THREAD_SLEEPING, CALLER_SLEEPING])
}
const [HEAD_INTS, SEEDS_AT, MESSAGE_AT, SIGNATURES_AT, SEED_BYTES, SIGNATURE_BYTES, SPIN_MS, IDLE_EXIT_MS] = ${
  JSON.stringify([HEAD_INTS, SEEDS_AT, MESSAGE_AT, SIGNATURES_AT, SEED_BYTES, SIGNATURE_BYTES, SPIN_MS, IDLE_EXIT_MS])
}
const PKCS8_ED25519_PREFIX = Buffer.from(${JSON.stringify(PKCS8_ED25519_PREFIX.toString("hex"))}, "hex")
const ctrl = new Int32Array(workerData, 0, HEAD_INTS)
const bytes = Buffer.from(workerData)
const keys = new Map()
const keyOf = (seed) => {
  const id = seed.toString("latin1")
  let key = keys.get(id)
  if (key === undefined) {
    key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: "der", type: "pkcs8" })
    keys.set(id, key)
  }
  return key
}
const signPosted = () => {
  try {
    const message = bytes.subarray(MESSAGE_AT, MESSAGE_AT + ctrl[MESSAGE_LENGTH])
    for (let i = 0; i < ctrl[SIGNERS]; i++) {
      const seed = bytes.subarray(SEEDS_AT + i * SEED_BYTES, SEEDS_AT + (i + 1) * SEED_BYTES)
      sign(null, message, keyOf(seed)).copy(bytes, SIGNATURES_AT + i * SIGNATURE_BYTES)
    }
    Atomics.store(ctrl, STATE, DONE)
  } catch {
    Atomics.store(ctrl, STATE, FAILED)
  }
  if (Atomics.load(ctrl, CALLER_SLEEPING) === 1) Atomics.notify(ctrl, STATE)
}
Atomics.store(ctrl, READY, 1)
let active = performance.now()
for (;;) {
  const state = Atomics.load(ctrl, STATE)
  if (state === POSTED) {
    if (Atomics.compareExchange(ctrl, STATE, POSTED, CLAIMED) === POSTED) signPosted()
    active = performance.now()
    continue
  }
  if (performance.now() - active < SPIN_MS) continue
  Atomics.store(ctrl, THREAD_SLEEPING, 1)
  const waited = Atomics.wait(ctrl, STATE, state, IDLE_EXIT_MS)
  Atomics.store(ctrl, THREAD_SLEEPING, 0)
  if (waited === "timed-out" && state === IDLE && Atomics.compareExchange(ctrl, STATE, IDLE, CLOSED) === IDLE) break
  active = performance.now()
}
`

export interface PendingSignatures {
  /** The signatures, in the order of the keypairs given to `begin`. */
  readonly finish: () => Array<Uint8Array>
}

const signHere = (messageBytes: Uint8Array, keypairs: ReadonlyArray<Keypair>): Array<Uint8Array> =>
  keypairs.map((keypair) => keypair.sign(messageBytes))

export class SigningThread {
  private ctrl: Int32Array | undefined
  private bytes: Uint8Array | undefined
  private broken = false
  /** Requests signed by the thread and here (tests and diagnostics). */
  readonly counts = { thread: 0, here: 0 }

  /** Starts signing `messageBytes` with each keypair (each keypair's `secretKey` starts with its seed). */
  begin(messageBytes: Uint8Array, keypairs: ReadonlyArray<Keypair>): PendingSignatures {
    const ctrl = this.available()
    if (ctrl === undefined || keypairs.length > MAX_SIGNERS || messageBytes.length > PACKET_DATA_SIZE) return this.now(messageBytes, keypairs)
    // the slot is taken before it is written, so a thread exiting for idleness cannot take it too
    if (Atomics.compareExchange(ctrl, STATE, IDLE, WRITING) !== IDLE) {
      this.forget()
      return this.now(messageBytes, keypairs)
    }
    const bytes = this.bytes!
    keypairs.forEach((keypair, i) => bytes.set(keypair.secretKey.subarray(0, SEED_BYTES), SEEDS_AT + i * SEED_BYTES))
    bytes.set(messageBytes, MESSAGE_AT)
    ctrl[SIGNERS] = keypairs.length
    ctrl[MESSAGE_LENGTH] = messageBytes.length
    Atomics.store(ctrl, STATE, POSTED)
    if (Atomics.load(ctrl, THREAD_SLEEPING) === 1) Atomics.notify(ctrl, STATE)
    return { finish: () => this.collect(ctrl, messageBytes, keypairs) }
  }

  private now(messageBytes: Uint8Array, keypairs: ReadonlyArray<Keypair>): PendingSignatures {
    const signatures = signHere(messageBytes, keypairs)
    this.counts.here++
    return { finish: () => signatures }
  }

  private collect(ctrl: Int32Array, messageBytes: Uint8Array, keypairs: ReadonlyArray<Keypair>): Array<Uint8Array> {
    // not picked up yet: taken back and signed here
    if (Atomics.compareExchange(ctrl, STATE, POSTED, IDLE) === POSTED) {
      this.counts.here++
      return signHere(messageBytes, keypairs)
    }
    const spinUntil = performance.now() + COLLECT_SPIN_MS
    while (Atomics.load(ctrl, STATE) === CLAIMED && performance.now() < spinUntil) {
      // a signature takes tens of microseconds: polled rather than slept on
    }
    const deadline = Date.now() + ANSWER_TIMEOUT_MS
    while (Atomics.load(ctrl, STATE) === CLAIMED && Date.now() < deadline) {
      Atomics.store(ctrl, CALLER_SLEEPING, 1)
      Atomics.wait(ctrl, STATE, CLAIMED, ANSWER_TIMEOUT_MS)
      Atomics.store(ctrl, CALLER_SLEEPING, 0)
    }
    if (Atomics.load(ctrl, STATE) !== DONE) {
      this.broken = true
      this.forget()
      this.counts.here++
      return signHere(messageBytes, keypairs)
    }
    const bytes = this.bytes!
    const signatures = keypairs.map((_, i) => bytes.slice(SIGNATURES_AT + i * SIGNATURE_BYTES, SIGNATURES_AT + (i + 1) * SIGNATURE_BYTES))
    Atomics.store(ctrl, STATE, IDLE)
    this.counts.thread++
    return signatures
  }

  /** The shared state of a thread that is running or starting; starts one when there is none. */
  private available(): Int32Array | undefined {
    if (this.broken) return undefined
    if (this.ctrl !== undefined && Atomics.load(this.ctrl, STATE) === CLOSED) this.forget()
    if (this.ctrl === undefined) this.start()
    // until the thread is up, requests are signed here
    return this.ctrl !== undefined && Atomics.load(this.ctrl, READY) === 1 ? this.ctrl : undefined
  }

  private start(): void {
    try {
      const buffer = new SharedArrayBuffer(BUFFER_BYTES)
      const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: buffer })
      const ctrl = new Int32Array(buffer, 0, HEAD_INTS)
      // a thread that fails (or exits) is seen as closed: the next request starts another, unless
      // this one never came up (then every request is signed here)
      const closed = () => {
        if (Atomics.load(ctrl, READY) !== 1) this.broken = true
        Atomics.store(ctrl, STATE, CLOSED)
      }
      worker.once("error", closed)
      worker.once("exit", closed)
      worker.unref()
      this.ctrl = ctrl
      this.bytes = new Uint8Array(buffer)
    } catch {
      this.broken = true
    }
  }

  private forget(): void {
    this.ctrl = undefined
    this.bytes = undefined
  }
}

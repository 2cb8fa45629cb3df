import { type Address } from "@solana/kit"
import { Clock, Deferred, Duration, Effect, Queue, Schedule, type Scope, Stream } from "effect"
import { type ChainEvent, ChainSourceError } from "../../services/ChainSource.ts"
import type { SolanaRpc } from "../../services/SolanaRpc.ts"
import { fetchAccounts, fromBase64, snapshotProgramAccounts } from "./accounts.ts"
import { RecentSignatures, type SessionItem } from "./sessionItems.ts"
import type { SolanaSubscriptions } from "./subscriptions.ts"
import { fetchProgramTransaction, newestSignature, signaturesAfter } from "./transactions.ts"

type Rpc = SolanaRpc["Type"]

export interface SessionOptions {
  readonly program: Address
  /**
   * Accounts of other programs followed as well (the Pyth price feed accounts): subscribed on the
   * same connection, so their notifications are ordered with the slot notifications, and fetched
   * into every snapshot and at every reconnect.
   */
  readonly watched: ReadonlyArray<Address>
  /** Notifications buffered per connection before an overflow forces a resynchronisation. */
  readonly bufferSize: number
  readonly reconcileInterval: Duration.Duration
  /** The connection counts as stalled when the chain tip is this many slots past our last slot notification... */
  readonly stallSlots: number
  /** ...for this long. */
  readonly stallTimeout: Duration.Duration
  /** Beyond this many missed transactions a full snapshot is cheaper than a backfill. */
  readonly maxBackfill: number
  readonly fetchConcurrency: number
}

/** Where ingestion stands across connections; owned by the reconnect loop. */
export interface Cursor {
  /** Every program transaction up to this one has been delivered. */
  signature: string | null
  /** The slot of `signature` (0 when unknown, as after a restore). */
  slot: number
  needsSnapshot: boolean
  readonly delivered: RecentSignatures
}

const failure = (message: string, cause?: unknown) => new ChainSourceError({ message, cause })

const promise = <A>(what: string, run: (signal: AbortSignal) => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (cause) => failure(`${what}: ${String(cause)}`, cause) })

/**
 * One connection's life: subscribe first (so nothing is missed), then catch up (a full snapshot on
 * an empty projection, otherwise a backfill of the transactions since the cursor), then deliver the
 * buffered and live notifications in order. Fails, for the caller to reconnect, when the socket
 * closes, the buffer overflows, notifications stall, or a gap is too wide to backfill.
 */
export const runSession = (
  rpc: Rpc,
  subscriptions: SolanaSubscriptions,
  options: SessionOptions,
  cursor: Cursor,
  out: Queue.Enqueue<ChainEvent>
): Effect.Effect<never, ChainSourceError, Scope.Scope> =>
  Effect.gen(function*() {
    const items = yield* Queue.dropping<SessionItem>(options.bufferSize)
    const broken = yield* Deferred.make<never, ChainSourceError>()
    const enqueue = (item: SessionItem) => {
      if (!Queue.unsafeOffer(items, item)) {
        Deferred.unsafeDone(broken, Effect.fail(failure("notification buffer overflowed: resynchronising")))
      }
    }
    let lastSlot = 0

    const pump = <N>(name: string, open: (signal: AbortSignal) => Promise<AsyncIterable<N>>, toItem: (n: N) => SessionItem | null) =>
      Effect.forkScoped(
        promise(`${name} subscription`, async (signal) => {
          for await (const notification of await open(signal)) {
            const item = toItem(notification)
            if (item !== null) enqueue(item)
          }
          throw new Error("closed by the node")
        }).pipe(Effect.catchAll((error) => Deferred.fail(broken, error)))
      )

    yield* pump(
      "program",
      (abortSignal) =>
        subscriptions
          .programNotifications(options.program, { encoding: "base64", commitment: "confirmed" })
          .subscribe({ abortSignal }),
      (n) => ({
        _tag: "Account",
        update: {
          _tag: "AccountUpdated",
          address: n.value.pubkey,
          owner: n.value.account.owner,
          slot: Number(n.context.slot),
          data: fromBase64(n.value.account.data[0])
        }
      })
    )
    for (const watched of options.watched) {
      yield* pump(
        `account ${watched}`,
        (abortSignal) =>
          subscriptions.accountNotifications(watched, { encoding: "base64", commitment: "confirmed" }).subscribe({ abortSignal }),
        (n) => ({
          _tag: "Account",
          update: { _tag: "AccountUpdated", address: watched, owner: n.value.owner, slot: Number(n.context.slot), data: fromBase64(n.value.data[0]) }
        })
      )
    }
    yield* pump(
      "logs",
      (abortSignal) =>
        subscriptions.logsNotifications({ mentions: [options.program] }, { commitment: "confirmed" }).subscribe({ abortSignal }),
      (n) => (cursor.delivered.has(n.value.signature) ? null : { _tag: "Transaction", signature: n.value.signature })
    )
    yield* pump(
      "slot",
      (abortSignal) => subscriptions.slotNotifications().subscribe({ abortSignal }),
      (n) => {
        lastSlot = Math.max(lastSlot, Number(n.slot))
        return { _tag: "Slot", slot: Number(n.slot) }
      }
    )

    // Watched from the start: a connection that goes quiet during the catch-up is as broken as later.
    yield* Effect.forkScoped(watchStalls(rpc, options, () => lastSlot, broken))
    const catchUp = Effect.gen(function*() {
      if (cursor.needsSnapshot) yield* snapshot(rpc, options, cursor, out)
      // Updates missed while disconnected are not replayed by anyone: read the watched accounts again.
      else yield* refreshWatched(rpc, options, 0, out)
      yield* reconcile(rpc, options, cursor, enqueue, true)
    })
    yield* Effect.raceFirst(catchUp, Deferred.await(broken))

    yield* Effect.forkScoped(
      Effect.repeat(reconcile(rpc, options, cursor, enqueue), { schedule: Schedule.spaced(options.reconcileInterval) }).pipe(
        Effect.catchAll((error) => Deferred.fail(broken, error))
      )
    )

    const inFlight = new Set<string>()
    const deliver = Stream.fromQueue(items).pipe(
      Stream.mapEffect((item) => handle(rpc, options, cursor, inFlight, item), { concurrency: options.fetchConcurrency }),
      Stream.runForEach((event) => (event === null ? Effect.void : Queue.offer(out, event)))
    )
    return yield* Effect.raceFirst(Effect.zipRight(deliver, Effect.never), Deferred.await(broken))
  })

const snapshot = (rpc: Rpc, options: SessionOptions, cursor: Cursor, out: Queue.Enqueue<ChainEvent>) =>
  Effect.gen(function*() {
    // The seam: transactions up to it are reflected in the snapshot taken just after.
    const seam = yield* newestSignature(rpc, options.program)
    const { slot, accounts } = yield* snapshotProgramAccounts(rpc, options.program)
    yield* Queue.offer(out, { _tag: "SnapshotStarted", slot })
    const addresses = new Set<string>()
    for (const account of accounts) {
      addresses.add(account.address)
      yield* Queue.offer(out, account)
    }
    for (const account of yield* refreshWatched(rpc, options, slot, out)) {
      if (account.data.length > 0) addresses.add(account.address)
    }
    yield* Queue.offer(out, { _tag: "SnapshotEnded", slot, addresses })
    if (seam !== null) {
      cursor.delivered.add(seam.signature)
      yield* Queue.offer(out, { _tag: "TransactionsComplete", signature: seam.signature, slot: seam.slot })
    }
    cursor.signature = seam?.signature ?? null
    // A program without transactions: everything up to the snapshot is known to be none.
    cursor.slot = seam?.slot ?? slot
    cursor.needsSnapshot = false
  })

/**
 * The watched accounts as of `minSlot` or later, delivered as AccountUpdated (a missing account with
 * empty data, which closes it). Buffered notifications older than the read are then ignored by slot.
 */
const refreshWatched = (rpc: Rpc, options: SessionOptions, minSlot: number, out: Queue.Enqueue<ChainEvent>) =>
  Effect.gen(function*() {
    if (options.watched.length === 0) return []
    const accounts = yield* fetchAccounts(rpc, options.watched, minSlot)
    yield* Queue.offerAll(out, accounts)
    return accounts
  })

/**
 * Queues every program transaction after the cursor not delivered yet, then a completion marker.
 * `afterConnect`: the marker is queued even when nothing is new, since it is what tells the
 * projection a new connection has caught up (on a quiet program no other transaction would; on a
 * program without any transaction yet, the marker names none). A null cursor means the program had
 * no transaction as of the snapshot or checkpoint, so every transaction it has now is new.
 */
const reconcile = (rpc: Rpc, options: SessionOptions, cursor: Cursor, enqueue: (item: SessionItem) => void, afterConnect = false) =>
  Effect.gen(function*() {
    const since = cursor.signature
    const { signatures, complete } = yield* signaturesAfter(rpc, options.program, since, options.maxBackfill)
    if (!complete) {
      cursor.needsSnapshot = true
      return yield* Effect.fail(failure(`more than ${options.maxBackfill} transactions missed: taking a full snapshot`))
    }
    for (const info of signatures) {
      if (!cursor.delivered.has(info.signature)) enqueue({ _tag: "Transaction", signature: info.signature })
    }
    const newest = signatures[signatures.length - 1]
    if (newest !== undefined) enqueue({ _tag: "Complete", ...newest })
    else if (afterConnect) enqueue({ _tag: "Complete", signature: since, slot: cursor.slot })
  })

const handle = (
  rpc: Rpc,
  options: SessionOptions,
  cursor: Cursor,
  inFlight: Set<string>,
  item: SessionItem
): Effect.Effect<ChainEvent | null, ChainSourceError> => {
  switch (item._tag) {
    case "Account":
      return Effect.succeed(item.update)
    case "Slot":
      return rpc.call("getBlockTime", [Math.max(0, item.slot - 1)]).pipe(
        Effect.orElseSucceed(() => null),
        Effect.map((completedBlockTime) => ({ _tag: "SlotAdvanced", slot: item.slot, completedBlockTime }) as const)
      )
    case "Complete":
      return Effect.sync(() => {
        cursor.signature = item.signature
        cursor.slot = item.slot
        return { _tag: "TransactionsComplete", signature: item.signature, slot: item.slot } as const
      })
    case "Transaction": {
      // Checked when the handler starts, which is in queue order: a signature queued twice is fetched once.
      if (cursor.delivered.has(item.signature) || inFlight.has(item.signature)) return Effect.succeed(null)
      inFlight.add(item.signature)
      return fetchUntilServed(rpc, options, item.signature).pipe(
        Effect.tap(() => cursor.delivered.add(item.signature)),
        Effect.ensuring(Effect.sync(() => inFlight.delete(item.signature)))
      )
    }
  }
}

/**
 * A just-notified transaction may not be served for a moment, so retry for a while; one that never
 * is fails the session, whose successor reconciles from the unchanged cursor.
 */
const fetchUntilServed = (rpc: Rpc, options: SessionOptions, signature: string) =>
  fetchProgramTransaction(rpc, options.program, signature).pipe(
    Effect.flatMap((tx) => (tx === null ? Effect.fail(failure(`transaction ${signature} is not served`)) : Effect.succeed(tx))),
    Effect.retry({ times: 50, schedule: Schedule.spaced(Duration.millis(200)) })
  )

const watchStalls = (
  rpc: Rpc,
  options: SessionOptions,
  lastSlot: () => number,
  broken: Deferred.Deferred<never, ChainSourceError>
) =>
  Effect.gen(function*() {
    let behindSince: number | null = null
    for (;;) {
      yield* Effect.sleep(Duration.seconds(1))
      const tip = yield* rpc.call("getSlot", [{ commitment: "confirmed" }]).pipe(Effect.orElseSucceed(() => null))
      const now = yield* Clock.currentTimeMillis
      if (tip === null || tip - lastSlot() <= options.stallSlots) {
        behindSince = null
        continue
      }
      behindSince ??= now
      if (now - behindSince >= Duration.toMillis(options.stallTimeout)) {
        return yield* Deferred.fail(broken, failure(`notifications stalled: chain at ${tip}, last notified ${lastSlot()}`))
      }
    }
  })

import { Effect } from "effect"
import type { AccountUpdated, ChainEvent, ProgramEvents } from "../../services/ChainSource.ts"
import { ChainSource } from "../../services/ChainSource.ts"
import type { StoredAccount } from "../../services/ChainStore.ts"
import type { ProjectionChangeBatch } from "../../services/Projection.ts"
import type { AsOf } from "../../src/domain/chainPosition.ts"
import { RepairTracker } from "../../src/domain/projection/repairs.ts"
import type { ProjectionState } from "../../src/domain/projection/state.ts"
import type { ProjectionPhase } from "../../src/domain/status.ts"
import type { StatusCell } from "../../src/domain/statusCell.ts"
import type { ChangeListeners } from "./changeListeners.ts"
import type { CheckpointJob } from "./checkpointer.ts"
import { accountUpdatesApplied, chainReconnects, NO_TAGS, notificationsRepaired, programEventsApplied } from "../../src/telemetry/instruments.ts"

/**
 * At most this many account updates between two hand-overs to the listeners: a long backlog chunk
 * does not hold back its first frames, and each hand-over (a fan-out round) serves many updates.
 */
const FLUSH_EVERY = 256

/** Caught up with the transactions, but live needs a known position and chain slot as well. */
const WAITING_FOR_SLOT = "waiting for the chain's first slot"

export interface WriterOptions {
  readonly genesisHash: string
  /** Above this many slots behind the chain tip the projection is degraded, not live. */
  readonly maxLagSlots: number
  readonly checkpointEveryMs: number
}

/**
 * The single writer: applies the chain stream to the state in order, repairs accounts whose
 * notifications went missing, and prepares checkpoint jobs. Only the writer fiber calls it.
 */
export class ProjectionWriter {
  readonly #repairs = new RepairTracker()
  readonly #dirty = new Set<string>()
  #transactions: Array<ProgramEvents> = []
  #completions: Array<{ readonly signature: string; readonly slot: number }> = []
  #lastSignature: string | null
  #chainSlot: number | null = null
  /** The slot the last checkpoint job claims (it may not have landed yet). */
  #checkpointSlot: number | null
  /** The slot of the last checkpoint in the database: what the status reports. */
  #writtenCheckpointSlot: number | null
  #lastCheckpointAt = 0
  /** Whether state is whole: restored or snapshotted, and reconciled since the last interruption. */
  #caughtUp = false
  #snapshotting = false
  #interruption: string | null = null
  /** Applied changes not yet handed to the listeners. */
  #pending: Array<ProjectionChangeBatch> = []
  #appliedSinceFlush = 0
  #listenerErrors: Array<unknown> = []

  constructor(
    readonly state: ProjectionState,
    private readonly options: WriterOptions,
    private readonly status: StatusCell,
    private readonly listeners: ChangeListeners,
    restored: { readonly slot: number; readonly lastSignature: string | null } | null
  ) {
    this.#lastSignature = restored?.lastSignature ?? null
    this.#checkpointSlot = restored?.slot ?? null
    this.#writtenCheckpointSlot = this.#checkpointSlot
  }

  /**
   * Applies a chunk of the chain stream in order: account updates and transactions synchronously (no
   * Effect per event), the rare others as effects once the changes before them were handed on.
   */
  handleChunk(events: ReadonlyArray<ChainEvent>): Effect.Effect<void, never, ChainSource> {
    return this.#handleFrom(events, 0)
  }

  #handleFrom(events: ReadonlyArray<ChainEvent>, start: number): Effect.Effect<void, never, ChainSource> {
    for (let i = start; i < events.length; i++) {
      const event = events[i]!
      if (event._tag === "AccountUpdated") {
        this.#noteAndApply(event)
        if (++this.#appliedSinceFlush >= FLUSH_EVERY) this.#flush()
      } else if (event._tag === "ProgramEvents") {
        this.#noteTransaction(event)
      } else {
        this.#flush()
        return Effect.zipRight(this.handle(event), Effect.suspend(() => this.#handleFrom(events, i + 1)))
      }
    }
    this.#flushWhenIdle()
    return this.#reportListenerErrors()
  }

  /**
   * Hands the changes on when the writer suspends for its next chunk (a microtask, never a timer): the
   * stream's next chunk often follows at once, and one fan-out round serves both.
   */
  #flushWhenIdle(): void {
    if (this.#flushScheduled || this.#pending.length === 0) return
    this.#flushScheduled = true
    queueMicrotask(this.#idleFlush)
  }

  #flushScheduled = false
  readonly #idleFlush = (): void => {
    this.#flushScheduled = false
    this.#flush()
  }

  handle(event: ChainEvent): Effect.Effect<void, never, ChainSource> {
    switch (event._tag) {
      case "AccountUpdated":
        return Effect.suspend(() => {
          this.#noteAndApply(event)
          this.#flush()
          return this.#reportListenerErrors()
        })
      case "ProgramEvents":
        return Effect.sync(() => this.#noteTransaction(event))
      case "TransactionsComplete":
        return Effect.suspend(() => {
          // A null signature (a program without transactions) completes nothing to resume from.
          if (event.signature !== null) this.#completions.push({ signature: event.signature, slot: event.slot })
          this.#caughtUp = true
          this.#interruption = null
          return this.#publishStatus()
        })
      case "SlotAdvanced":
        return Effect.suspend(() => {
          this.#chainSlot = Math.max(this.#chainSlot ?? 0, event.slot)
          const completed = event.slot - 1
          const previous = this.state.asOf
          if (previous === null || completed > previous.slot) {
            this.state.asOf = { slot: completed, blockTime: event.completedBlockTime ?? previous?.blockTime ?? null }
          }
          return Effect.zipRight(this.#repair(completed), this.#publishStatus())
        })
      case "SnapshotStarted":
        return Effect.suspend(() => {
          this.#snapshotting = true
          this.#caughtUp = false
          return this.#publishStatus("catching_up")
        })
      case "SnapshotEnded":
        return Effect.suspend(() => {
          this.#snapshotting = false
          const held = [...this.state.accounts.keys(), ...this.state.priceAccounts.keys()]
          const closed = held.filter((address) => !event.addresses.has(address))
          for (const address of closed) this.#apply({ _tag: "AccountUpdated", address, owner: "", slot: event.slot, data: new Uint8Array() })
          this.#flush()
          return this.#reportListenerErrors()
        })
      case "StreamInterrupted":
        return Effect.suspend(() => {
          this.#caughtUp = false
          chainReconnects.unsafeUpdate(1, NO_TAGS)
          // Pending repairs are kept: their transactions were delivered and will not come again.
          this.#interruption = event.reason
          return this.#publishStatus()
        })
    }
  }

  #noteAndApply(update: AccountUpdated): void {
    if (this.#snapshotting === false) this.#repairs.noteNotification(update.address, update.slot)
    this.#apply(update)
  }

  #noteTransaction(event: ProgramEvents): void {
    this.#transactions.push(event)
    programEventsApplied.unsafeUpdate(1, NO_TAGS)
    if (!event.failed) this.#repairs.note(event.slot, event.writableAccounts)
  }

  #apply(update: AccountUpdated): void {
    const stored = this.state.accounts.get(update.address)
    if (stored !== undefined && update.slot < stored.slot) return
    const changes = this.state.apply(update)
    accountUpdatesApplied.unsafeUpdate(1, NO_TAGS)
    this.#dirty.add(update.address)
    if (changes.length > 0) this.#pending.push({ slot: update.slot, version: this.state.version, changes })
  }

  /** Hands the applied changes to the listeners (the WebSocket hub publishes them now). */
  #flush(): void {
    this.#appliedSinceFlush = 0
    if (this.#pending.length === 0) return
    const batches = this.#pending
    this.#pending = []
    const errors = this.listeners.emit(batches)
    if (errors.length > 0) this.#listenerErrors.push(...errors)
  }

  #reportListenerErrors(): Effect.Effect<void> {
    if (this.#listenerErrors.length === 0) return Effect.void
    const errors = this.#listenerErrors
    this.#listenerErrors = []
    return Effect.logError("a projection change listener failed", ...errors)
  }

  /** Fetches accounts a completed transaction wrote but whose notification never came. */
  #repair(completedSlot: number): Effect.Effect<void, never, ChainSource> {
    const due = this.#repairs.due(completedSlot, this.state)
    if (due.length === 0) return Effect.void
    return Effect.gen(this, function*() {
      const source = yield* ChainSource
      const minSlot = Math.max(...due.map((d) => d.minSlot))
      const fetched = yield* source.fetchAccounts(due.map((d) => d.address), minSlot)
      notificationsRepaired.unsafeUpdate(fetched.length, NO_TAGS)
      for (const update of fetched) {
        const foreign = update.owner !== source.programId && update.owner !== ""
        if (foreign && !this.state.accounts.has(update.address)) {
          this.#repairs.markForeign(update.address)
          continue
        }
        this.#apply(update)
      }
      this.#flush()
      yield* this.#reportListenerErrors()
    }).pipe(
      // A failed repair is retried by the next connection's backfill: interrupting says so.
      Effect.catchAll((error) =>
        Effect.sync(() => {
          this.#caughtUp = false
          this.#interruption = `repairing accounts failed: ${error.message}`
        })
      )
    )
  }

  /**
   * Repairs due for slots already complete. Normally the next slot notification triggers them; this
   * covers transactions delivered after it (a reconnect's backfill on a chain that went quiet).
   */
  repairCompleted(): Effect.Effect<void, never, ChainSource> {
    const asOf = this.state.asOf
    return asOf === null ? Effect.void : this.#repair(asOf.slot)
  }

  /**
   * A job with the transactions since the last one and, when due, a checkpoint. A follower
   * (`leader: false`) appends transactions only, and keeps every changed account dirty, so that its
   * first checkpoint as leader writes everything it changed since it restored the old leader's.
   */
  takeJob(now: number, force: boolean, leader = true): CheckpointJob | null {
    const transactions = this.#transactions
    this.#transactions = []
    const asOf = this.state.asOf
    if (!leader) {
      // completions keep coming on a follower: folded into the signature its first checkpoint claims
      if (asOf !== null) this.#advanceLastSignature(asOf)
      return transactions.length === 0 ? null : { transactions, checkpoint: null }
    }
    const checkpointDue = force || now - this.#lastCheckpointAt >= this.options.checkpointEveryMs
    if (!checkpointDue || asOf === null || (this.#dirty.size === 0 && asOf.slot === this.#checkpointSlot)) {
      return transactions.length === 0 ? null : { transactions, checkpoint: null }
    }
    this.#lastCheckpointAt = now
    this.#advanceLastSignature(asOf)
    const changed: Array<StoredAccount> = []
    const removed: Array<string> = []
    for (const address of this.#dirty) {
      const account = this.state.accounts.get(address)
      const price = account === undefined ? this.state.priceAccounts.get(address) : undefined
      if (account !== undefined) changed.push({ address, owner: account.owner, slot: account.slot, data: account.data, vault: account.vault })
      else if (price !== undefined) changed.push({ address, owner: price.owner, slot: price.slot, data: price.data, vault: null })
      else removed.push(address)
    }
    this.#dirty.clear()
    this.#checkpointSlot = asOf.slot
    const position = {
      genesisHash: this.options.genesisHash,
      programId: this.state.programId,
      slot: asOf.slot,
      blockTime: asOf.blockTime,
      lastSignature: this.#lastSignature
    }
    return { transactions, checkpoint: { position, changed, removed } }
  }

  /**
   * On a follower: the leader's checkpoint at `slot` holds every account version up to that slot,
   * so accounts this instance holds at or below it need not be written if it becomes the leader
   * (its first checkpoint then stays small). Removed accounts stay marked (their slot is unknown).
   */
  forgetWrittenBy(slot: number): void {
    for (const address of this.#dirty) {
      const held = this.state.accounts.get(address) ?? this.state.priceAccounts.get(address)
      if (held !== undefined && held.slot <= slot) this.#dirty.delete(address)
    }
    if (this.#checkpointSlot === null || slot > this.#checkpointSlot) this.#checkpointSlot = slot
    this.#noteWritten(slot)
  }

  /** The checkpointer wrote the checkpoint at `slot`: the status says so, and nothing else changes. */
  checkpointWritten(slot: number): Effect.Effect<void> {
    this.#noteWritten(slot)
    const written = this.#writtenCheckpointSlot
    return this.status.update((current) => (current.checkpointSlot === written ? current : { ...current, checkpointSlot: written }))
  }

  #noteWritten(slot: number): void {
    if (this.#writtenCheckpointSlot === null || slot > this.#writtenCheckpointSlot) this.#writtenCheckpointSlot = slot
  }

  /** The newest completed transaction whose writes are certainly in the state: delivered and repaired. */
  #advanceLastSignature(asOf: AsOf): void {
    const pending = this.#repairs.oldestPendingSlot()
    let keep = 0
    for (let i = 0; i < this.#completions.length; i++) {
      const completion = this.#completions[i]!
      if (completion.slot > asOf.slot || (pending !== null && completion.slot >= pending)) break
      this.#lastSignature = completion.signature
      keep = i + 1
    }
    this.#completions = this.#completions.slice(keep)
  }

  #publishStatus(phase?: ProjectionPhase): Effect.Effect<void> {
    return this.status.update((current) => {
      const asOf = this.state.asOf
      const lagSlots = asOf !== null && this.#chainSlot !== null ? Math.max(0, this.#chainSlot - 1 - asOf.slot) : null
      const lagSeconds = asOf?.blockTime != null ? Math.max(0, Math.round(Date.now() / 1000) - asOf.blockTime) : null
      const next: ProjectionPhase =
        phase ??
        (this.#interruption !== null
          ? "degraded"
          : !this.#caughtUp || lagSlots === null
            ? "catching_up"
            : lagSlots > this.options.maxLagSlots
              ? "degraded"
              : "live")
      return {
        ...current,
        status: next,
        asOf,
        chainSlot: this.#chainSlot,
        lagSlots,
        lagSeconds,
        checkpointSlot: this.#writtenCheckpointSlot,
        reason: next === "live" ? null : this.#interruption ?? (next === "degraded" ? `lagging ${lagSlots} slots` : this.#caughtUp ? WAITING_FOR_SLOT : "catching up")
      }
    })
  }
}

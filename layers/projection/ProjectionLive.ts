import { address } from "@solana/kit"
import { type Cause, Chunk, Duration, Effect, Either, Fiber, Layer, Option, Schedule, Stream } from "effect"
import { ChainSource } from "../../services/ChainSource.ts"
import { ChainStore } from "../../services/ChainStore.ts"
import { currentRole, Leadership } from "../../services/Leadership.ts"
import { Projection } from "../../services/Projection.ts"
import { ProjectionUnavailable } from "../../src/domain/errors.ts"
import { ProjectionState } from "../../src/domain/projection/state.ts"
import { StatusCell } from "../../src/domain/statusCell.ts"
import type { ProjectionPhase } from "../../src/domain/status.ts"
import { ChangeListeners } from "./changeListeners.ts"
import { startCheckpointer } from "./checkpointer.ts"
import { ProjectionWriter } from "./projectionWriter.ts"
import { startingStatus } from "./startingStatus.ts"

export interface ProjectionOptions {
  readonly maxLagSlots?: number
  readonly checkpointEvery?: Duration.DurationInput
  /** How often new transactions are appended to the event log. */
  readonly flushEvery?: Duration.DurationInput
}

const retryForever = Schedule.exponential(Duration.millis(250)).pipe(Schedule.union(Schedule.spaced(Duration.seconds(5))))

/**
 * The projection: restores from the last checkpoint (or starts empty), then applies the chain
 * stream in one fiber, checkpointing periodically and on shutdown.
 */
export const ProjectionLive = (options: ProjectionOptions = {}) =>
  Layer.scoped(
    Projection,
    Effect.gen(function*() {
      const source = yield* ChainSource
      const store = yield* ChainStore
      const status = yield* StatusCell.make(startingStatus("starting", source.origin))
      const listeners = new ChangeListeners()
      const state = new ProjectionState(address(source.programId))
      let writer: ProjectionWriter | null = null
      // One writer: the chain's chunks, the periodic tick and written checkpoints take turns under one permit.
      const turn = yield* Effect.makeSemaphore(1)
      const checkpointer = yield* startCheckpointer((slot) =>
        turn.withPermits(1)(Effect.suspend(() => writer?.checkpointWritten(slot) ?? Effect.void))
      )
      // Only the leader writes checkpoints; every instance appends the transactions it sees (idempotent).
      const leadership = yield* Effect.serviceOption(Leadership)
      const leading = () => currentRole(leadership) === "leader"
      const checkpointEveryMs = Duration.toMillis(Duration.decode(options.checkpointEvery ?? Duration.seconds(5)))
      const setPhase = (phase: ProjectionPhase, reason: string) => status.update((s) => ({ ...s, status: phase, reason }))

      const run = Effect.gen(function*() {
        const genesisHash = yield* source.genesisHash.pipe(
          Effect.tapError((e) =>
            Effect.zipRight(
              // degraded, not starting: nothing is on its way until the node answers
              setPhase("degraded", `chain unreachable: ${source.origin.rpcUrl}: ${e.message}`),
              Effect.logWarning(`chain unreachable at ${source.origin.rpcUrl}, retrying with backoff (up to 5 s): ${e.message}`)
            )
          ),
          Effect.retry(retryForever)
        )
        yield* setPhase("restoring", "restoring from the checkpoint")
        let checkpoint = yield* store.loadCheckpoint.pipe(Effect.retry(retryForever))
        if (Option.isSome(checkpoint) && (checkpoint.value.genesisHash !== genesisHash || checkpoint.value.programId !== source.programId)) {
          const { genesisHash: otherGenesis, programId: otherProgram } = checkpoint.value
          if (leading()) {
            yield* Effect.logWarning(
              `the checkpoint belongs to another chain or program (genesis ${otherGenesis}, program ${otherProgram}); ` +
                "discarding it and the event log"
            )
            yield* store.discardAll.pipe(Effect.retry(retryForever))
          } else {
            yield* Effect.logWarning(
              `the leader's checkpoint belongs to another chain or program (genesis ${otherGenesis}, program ${otherProgram}); ` +
                "not restoring it (only the leader discards it)"
            )
          }
          checkpoint = Option.none()
        }
        if (Option.isSome(checkpoint)) {
          const started = Date.now()
          // A chunk per step, not an Effect per account: a million accounts pay no per-element runtime cost.
          yield* Stream.runForEachChunk(store.checkpointedAccounts, (chunk) =>
            Effect.sync(() => {
              for (const account of chunk) state.apply(account, account.vault)
            })
          ).pipe(Effect.retry(retryForever))
          state.asOf = { slot: checkpoint.value.slot, blockTime: checkpoint.value.blockTime }
          yield* Effect.logInfo(`restored ${state.accounts.size} accounts at slot ${checkpoint.value.slot} in ${Date.now() - started} ms`)
        }
        const restored = Option.getOrNull(checkpoint)
        const writerOptions = { genesisHash, maxLagSlots: options.maxLagSlots ?? 150, checkpointEveryMs }
        const current = new ProjectionWriter(state, writerOptions, status, listeners, restored)
        writer = current
        yield* setPhase("catching_up", restored === null ? "taking a snapshot of the program's accounts" : "catching up from the checkpoint")
        const chain = source.events({ lastSignature: restored?.lastSignature ?? null, needsSnapshot: restored === null })
        const tick = Effect.zipRight(
          current.repairCompleted(),
          Effect.sync(() => {
            const job = current.takeJob(Date.now(), false, leading())
            if (job !== null) checkpointer.submit(job)
          })
        )
        yield* Effect.fork(
          Effect.repeat(turn.withPermits(1)(tick), Schedule.spaced(Duration.decode(options.flushEvery ?? Duration.millis(250))))
        )
        // A follower keeps what the leader has checkpointed out of its own first checkpoint as leader.
        const followLeader = Effect.gen(function*() {
          if (leading()) return
          const written = yield* store.loadCheckpoint
          if (Option.isSome(written) && written.value.genesisHash === genesisHash) {
            yield* turn.withPermits(1)(Effect.sync(() => current.forgetWrittenBy(written.value.slot)))
          }
        }).pipe(Effect.catchAll((error) => Effect.logDebug(`reading the leader's checkpoint failed: ${error.message}`)))
        yield* Effect.fork(Effect.repeat(followLeader, Schedule.spaced(Duration.millis(checkpointEveryMs))))
        yield* Stream.runForEachChunk(chain, (events) => turn.withPermits(1)(current.handleChunk(Chunk.toReadonlyArray(events))))
      })

      const stopped = (cause: Cause.Cause<unknown>) =>
        Effect.zipRight(Effect.logError("projection stopped", cause), setPhase("degraded", "ingestion stopped"))
      const fiber = yield* Effect.forkScoped(Effect.catchAllCause(run, stopped))
      // Registered after the checkpointer, so it runs first at shutdown: the last checkpoint lands.
      yield* Effect.addFinalizer(() =>
        Effect.gen(function*() {
          yield* Fiber.interrupt(fiber)
          const job = writer?.takeJob(Date.now(), true, leading()) ?? null
          if (job !== null) checkpointer.submit(job)
          const drained = yield* checkpointer.drain.pipe(Effect.timeout(Duration.seconds(10)), Effect.option)
          // a forced job without a checkpoint means the last one (maybe taken by the last tick, its
          // status not published yet) is already at the projection's position
          const slot = job?.checkpoint?.position.slot ?? state.asOf?.slot ?? null
          if (Option.isNone(drained)) yield* Effect.logWarning("the last checkpoint could not be written in 10 s")
          else if (!leading()) yield* Effect.logInfo("stopped as a follower: the leader keeps the checkpoint")
          else if (slot !== null) yield* Effect.logInfo(`last checkpoint written at slot ${slot}`)
          else yield* Effect.logInfo("stopped before the first checkpoint")
        })
      )

      const readSync = <A>(read: (state: ProjectionState) => A): Either.Either<A, ProjectionUnavailable> =>
        status.current.status === "live" ? Either.right(read(state)) : Either.left(ProjectionUnavailable.because(status.current.status))
      const service: Projection["Type"] = {
        status: Effect.sync(() => status.current),
        currentStatus: () => status.current,
        requireLive: Effect.suspend(() => readSync(() => undefined)),
        read: <A>(read: (state: ProjectionState) => A) => Effect.suspend(() => readSync(read)),
        readSync,
        statusChanges: status.changes,
        listen: (listener) => listeners.add(listener)
      }
      return service
    })
  )

import { generateKeyPairSigner } from "@solana/kit"
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Duration, Effect, Either, Exit, Layer, Scope, Stream } from "effect"
import { type AccountUpdated, ChainSource, ChainSourceError } from "../../../services/ChainSource.ts"
import { ChainStore } from "../../../services/ChainStore.ts"
import { Projection } from "../../../services/Projection.ts"
import { ProjectionLive, type ProjectionOptions } from "../../../layers/projection/ProjectionLive.ts"
import { encodeAccount } from "../../../src/ntbundle/accounts.ts"
import { blankBundle, blankUserBundleAccount } from "../../../src/ntbundle/blankAccounts.ts"
import { findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { memoryChainStore } from "../../../src/bench/support/memoryChainStore.ts"
import { poll } from "../../support/poll.ts"
import { scriptedChainSource } from "../../../src/bench/support/scriptedChainSource.ts"

const program = NTBUNDLE_PROGRAM_ID
const account = (address: string, slot: number, data: Uint8Array): AccountUpdated => ({ _tag: "AccountUpdated", address, owner: program, slot, data })
/** A new vault and owner, and the address of the owner's position in the vault. */
const newPosition = Effect.gen(function*() {
  const vault = (yield* Effect.promise(() => generateKeyPairSigner())).address
  const owner = (yield* Effect.promise(() => generateKeyPairSigner())).address
  const [position] = findUserBundlePda(program, owner, vault)
  return { vault, owner, position }
})

/** ProjectionLive over the scripted chain and the in-memory store, built in the current scope. */
const buildProjection = (
  chain: { readonly layer: Layer.Layer<ChainSource> },
  store: { readonly layer: Layer.Layer<ChainStore> },
  options?: ProjectionOptions
) =>
  Effect.map(Layer.build(ProjectionLive(options).pipe(Layer.provide(Layer.merge(chain.layer, store.layer)))), (context) =>
    Context.get(context, Projection)
  )

/** A snapshot at slot 10 holding one empty vault, and every transaction delivered. */
const caughtUpWithOneVault = (vault: string) =>
  [
    { _tag: "SnapshotStarted", slot: 10 },
    account(vault, 10, encodeAccount({ type: "Bundle", data: blankBundle() })),
    { _tag: "SnapshotEnded", slot: 10, addresses: new Set([vault]) },
    { _tag: "TransactionsComplete", signature: "seam", slot: 10 }
  ] as const

const quickCheckpoints = { checkpointEvery: Duration.millis(50), flushEvery: Duration.millis(20) }

/** The in-memory store, whose checkpoint writes wait until `release`; `taken` resolves once one is asked for. */
const heldCheckpoints = () =>
  Effect.gen(function*() {
    const store = yield* memoryChainStore()
    const asked = yield* Deferred.make<void>()
    const gate = yield* Deferred.make<void>()
    const layer = Layer.effect(
      ChainStore,
      Effect.map(ChainStore, (inner) =>
        ChainStore.of({
          ...inner,
          saveCheckpoint: (...args) => Effect.zipRight(Effect.zipRight(Deferred.succeed(asked, undefined), Deferred.await(gate)), inner.saveCheckpoint(...args))
        }))
    ).pipe(Layer.provide(store.layer))
    return { ref: store.ref, layer, taken: Deferred.await(asked), release: Deferred.succeed(gate, undefined) }
  })

describe("ProjectionLive", () => {
  it.live("a node that does not answer: degraded, with the chain's origin and the cause, until it does", () =>
    Effect.gen(function*() {
      const chain = yield* scriptedChainSource(program)
      const store = yield* memoryChainStore()
      let attempts = 0
      const down = Layer.effect(
        ChainSource,
        Effect.map(ChainSource, (source) =>
          ChainSource.of({
            ...source,
            genesisHash: Effect.suspend(() =>
              ++attempts < 3 ? Effect.fail(new ChainSourceError({ message: "connect ECONNREFUSED 127.0.0.1:1" })) : source.genesisHash
            )
          }))
      ).pipe(Layer.provide(chain.layer))
      const projection = yield* buildProjection({ layer: down }, store)
      const unreachable = yield* poll(projection.status, (s) => s.reason?.startsWith("chain unreachable") === true, "the unreachable status")
      expect(unreachable.status).toBe("degraded")
      expect(unreachable.reason).toBe("chain unreachable: http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1")
      // the node answers: the projection moves on and catches up
      const restoring = yield* poll(projection.status, (s) => s.status !== "degraded", "the projection to move on")
      expect(["restoring", "catching_up", "live"]).toContain(restoring.status)
    }).pipe(Effect.scoped))

  it.live("snapshots an empty projection, goes live, serves reads and checkpoints", () =>
    Effect.gen(function*() {
      const { vault, owner, position } = yield* newPosition
      const chain = yield* scriptedChainSource(program)
      const store = yield* memoryChainStore()
      const scope = yield* Scope.make()
      const options = { checkpointEvery: Duration.millis(50), flushEvery: Duration.millis(20) }
      const projection = yield* buildProjection(chain, store, options).pipe(Scope.extend(scope))

      const before = yield* Effect.either(projection.read((s) => s.vaults.size))
      expect(Either.isLeft(before)).toBe(true)

      yield* chain.send(
        { _tag: "SnapshotStarted", slot: 10 },
        account(vault, 10, encodeAccount({ type: "Bundle", data: blankBundle({ totalShares: 5n }) })),
        account(position, 10, encodeAccount({ type: "UserBundleAccount", data: blankUserBundleAccount(owner, { shares: 5n }) })),
        { _tag: "SnapshotEnded", slot: 10, addresses: new Set([vault, position]) }
      )
      const catchingUp = yield* poll(projection.status, (s) => s.status === "catching_up" && s.asOf === null, "catching up")
      expect(catchingUp.status).toBe("catching_up")
      yield* chain.send({ _tag: "TransactionsComplete", signature: "sig-seam", slot: 9 }, { _tag: "SlotAdvanced", slot: 12, completedBlockTime: 1_700_000_000 })
      const live = yield* poll(projection.status, (s) => s.status === "live", "live")
      expect(live.asOf).toEqual({ slot: 11, blockTime: 1_700_000_000 })
      expect(yield* projection.read((s) => s.users.get(position)?.vault)).toBe(vault)
      expect(chain.resumes).toEqual([{ lastSignature: null, needsSnapshot: true }])

      const saved = yield* poll(store.ref.get, (s) => s.checkpoint !== null, "a checkpoint")
      expect(saved.checkpoint).toMatchObject({ slot: 11, lastSignature: "sig-seam", genesisHash: "genesis-a", programId: program })
      expect(saved.accounts.get(position)?.vault).toBe(vault)
      yield* Scope.close(scope, Exit.void)
    }))

  it.live("reports a checkpoint's slot in its status once the checkpoint is written, not when it is taken", () =>
    Effect.gen(function*() {
      const { vault } = yield* newPosition
      const chain = yield* scriptedChainSource(program)
      const store = yield* heldCheckpoints()
      const projection = yield* buildProjection(chain, store, quickCheckpoints)
      yield* Effect.addFinalizer(() => store.release) // before the projection's last checkpoint
      yield* chain.send(...caughtUpWithOneVault(vault), { _tag: "SlotAdvanced", slot: 12, completedBlockTime: 1 })
      yield* store.taken
      // the chain moves on while the checkpoint at slot 11 is being written: the status says none yet
      yield* chain.send({ _tag: "SlotAdvanced", slot: 13, completedBlockTime: 2 })
      const moved = yield* poll(projection.status, (s) => s.asOf?.slot === 12, "slot 12")
      expect(moved.checkpointSlot).toBeNull()
      yield* store.release
      const written = yield* poll(projection.status, (s) => s.checkpointSlot !== null, "the written checkpoint's slot")
      expect(written.checkpointSlot).toBe(11)
      expect((yield* store.ref.get).checkpoint?.slot).toBe(11)
    }).pipe(Effect.scoped))

  it.live("a checkpoint written after ingestion stopped reports its slot and leaves the status degraded", () =>
    Effect.gen(function*() {
      const { vault } = yield* newPosition
      const chain = yield* scriptedChainSource(program)
      const failing = Layer.effect(
        ChainSource,
        Effect.map(ChainSource, (source) =>
          ChainSource.of({
            ...source,
            events: (resume) =>
              source.events(resume).pipe(Stream.tap((event) => event._tag === "SlotAdvanced" && event.slot === 13 ? Effect.die("a bug") : Effect.void))
          }))
      ).pipe(Layer.provide(chain.layer))
      const store = yield* heldCheckpoints()
      const projection = yield* buildProjection({ layer: failing }, store, quickCheckpoints)
      yield* Effect.addFinalizer(() => store.release)
      yield* chain.send(...caughtUpWithOneVault(vault), { _tag: "SlotAdvanced", slot: 12, completedBlockTime: 1 })
      yield* store.taken
      yield* chain.send({ _tag: "SlotAdvanced", slot: 13, completedBlockTime: 2 })
      yield* poll(projection.status, (s) => s.reason === "ingestion stopped", "ingestion stopped")
      yield* store.release
      const written = yield* poll(projection.status, (s) => s.checkpointSlot !== null, "the written checkpoint's slot")
      expect(written).toMatchObject({ status: "degraded", reason: "ingestion stopped", checkpointSlot: 11 })
    }).pipe(Effect.scoped))

  it.live("is not live before the chain's first slot, even once caught up with its transactions", () =>
    Effect.gen(function*() {
      const { vault } = yield* newPosition
      const chain = yield* scriptedChainSource(program)
      const store = yield* memoryChainStore()
      const projection = yield* buildProjection(chain, store)
      yield* chain.send(
        ...caughtUpWithOneVault(vault)
      )
      const waiting = yield* poll(projection.status, (s) => s.reason === "waiting for the chain's first slot", "caught up, no slot")
      expect(waiting).toMatchObject({ status: "catching_up", asOf: null, chainSlot: null })
      expect(Either.isLeft(yield* Effect.either(projection.requireLive))).toBe(true)
      yield* chain.send({ _tag: "SlotAdvanced", slot: 11, completedBlockTime: 1 })
      const live = yield* poll(projection.status, (s) => s.status === "live", "live")
      expect(live).toMatchObject({ asOf: { slot: 10, blockTime: 1 }, chainSlot: 11 })
    }).pipe(Effect.scoped))

  it.live("repairs an account whose notification was lost, once its transaction's slot completes", () =>
    Effect.gen(function*() {
      const { vault, owner, position } = yield* newPosition
      const chain = yield* scriptedChainSource(program)
      const store = yield* memoryChainStore()
      const projection = yield* buildProjection(chain, store)
      yield* chain.send(
        ...caughtUpWithOneVault(vault),
        { _tag: "SlotAdvanced", slot: 11, completedBlockTime: 1 }
      )
      yield* poll(projection.status, (s) => s.status === "live", "live")
      // A deposit at slot 12 created the position, but its account notification never arrived.
      chain.truth.set(owner, { _tag: "AccountUpdated", address: owner, owner: "11111111111111111111111111111111", slot: 13, data: new Uint8Array() })
      chain.truth.set(position, account(position, 13, encodeAccount({ type: "UserBundleAccount", data: blankUserBundleAccount(owner, { shares: 9n }) })))
      yield* chain.send(
        { _tag: "ProgramEvents", signature: "deposit", slot: 12, blockTime: 2, failed: false, events: [], writableAccounts: [owner, position, vault] },
        { _tag: "SlotAdvanced", slot: 13, completedBlockTime: 3 }
      )
      const shares = yield* poll(projection.read((s) => s.users.get(position)?.shares ?? null).pipe(Effect.orElseSucceed(() => null)), (v) => v === 9n, "the repaired position")
      expect(shares).toBe(9n)
      expect(chain.fetches.flat()).toContain(position)
      // The wallet turned out to be a foreign account: it is not fetched again for the next transaction.
      yield* chain.send(
        { _tag: "ProgramEvents", signature: "topup", slot: 14, blockTime: 4, failed: false, events: [], writableAccounts: [owner] },
        { _tag: "SlotAdvanced", slot: 15, completedBlockTime: 5 }
      )
      yield* poll(projection.status, (s) => s.asOf?.slot === 14, "slot 14")
      expect(chain.fetches.flat().filter((a) => a === owner)).toHaveLength(1)
    }).pipe(Effect.scoped))

  it.live("restores from a checkpoint of the same chain and resumes after its last signature", () =>
    Effect.gen(function*() {
      const vault = (yield* Effect.promise(() => generateKeyPairSigner())).address
      const data = encodeAccount({ type: "Bundle", data: blankBundle({ totalShares: 77n }) })
      const chain = yield* scriptedChainSource(program)
      const store = yield* memoryChainStore({
        checkpoint: { genesisHash: "genesis-a", programId: program, slot: 50, blockTime: 500, lastSignature: "sig-49" },
        accounts: new Map([[vault, { address: vault, owner: program, slot: 50, data, vault: null }]])
      })
      const projection = yield* buildProjection(chain, store)
      yield* poll(projection.status, (s) => s.status === "catching_up", "catching up")
      expect(chain.resumes).toEqual([{ lastSignature: "sig-49", needsSnapshot: false }])
      const whileCatchingUp = yield* Effect.either(projection.read((s) => s.vaults.size))
      expect(Either.isLeft(whileCatchingUp) && whileCatchingUp.left.code).toBe("PROJECTION_UNAVAILABLE")
      yield* chain.send({ _tag: "TransactionsComplete", signature: "sig-60", slot: 60 }, { _tag: "SlotAdvanced", slot: 61, completedBlockTime: 600 })
      yield* poll(projection.status, (s) => s.status === "live", "live")
      expect(yield* projection.read((s) => s.vaults.get(vault)?.bundle.totalShares)).toBe(77n)
    }).pipe(Effect.scoped))

  it.live("discards a checkpoint of another chain instead of mixing two chains", () =>
    Effect.gen(function*() {
      const chain = yield* scriptedChainSource(program, "genesis-b")
      const store = yield* memoryChainStore({
        checkpoint: { genesisHash: "genesis-a", programId: program, slot: 50, blockTime: 500, lastSignature: "sig-49" }
      })
      yield* buildProjection(chain, store)
      yield* poll(Effect.sync(() => chain.resumes.length), (n) => n === 1, "the stream to open")
      expect(chain.resumes).toEqual([{ lastSignature: null, needsSnapshot: true }])
      expect((yield* store.ref.get).checkpoint).toBeNull()
    }).pipe(Effect.scoped))

  it.live("is degraded while the stream is interrupted, and live again once reconciled", () =>
    Effect.gen(function*() {
      const chain = yield* scriptedChainSource(program)
      const store = yield* memoryChainStore()
      const projection = yield* buildProjection(chain, store)
      yield* chain.send(
        { _tag: "SnapshotStarted", slot: 1 },
        { _tag: "SnapshotEnded", slot: 1, addresses: new Set() },
        { _tag: "TransactionsComplete", signature: "a", slot: 1 },
        { _tag: "SlotAdvanced", slot: 2, completedBlockTime: 1 }
      )
      yield* poll(projection.status, (s) => s.status === "live", "live")
      yield* chain.send({ _tag: "StreamInterrupted", reason: "socket closed" })
      const degraded = yield* poll(projection.status, (s) => s.status === "degraded", "degraded")
      expect(degraded.reason).toBe("socket closed")
      yield* chain.send({ _tag: "TransactionsComplete", signature: "b", slot: 3 })
      const again = yield* poll(projection.status, (s) => s.status === "live", "live again")
      expect(again.reason).toBeNull()
    }).pipe(Effect.scoped))
})

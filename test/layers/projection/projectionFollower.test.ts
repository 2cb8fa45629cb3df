import { generateKeyPairSigner } from "@solana/kit"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Ref, SubscriptionRef } from "effect"
import type { AccountUpdated, ProgramEvents } from "../../../services/ChainSource.ts"
import { Leadership, type LeadershipRole } from "../../../services/Leadership.ts"
import { Projection } from "../../../services/Projection.ts"
import { ProjectionLive } from "../../../layers/projection/ProjectionLive.ts"
import { encodeAccount } from "../../../src/ntbundle/accounts.ts"
import { blankBundle } from "../../../src/ntbundle/blankAccounts.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { memoryChainStore } from "../../../src/bench/support/memoryChainStore.ts"
import { scriptedChainSource } from "../../../src/bench/support/scriptedChainSource.ts"
import { poll } from "../../support/poll.ts"

const program = NTBUNDLE_PROGRAM_ID
const vaultAt = (address: string, slot: number, totalShares: bigint): AccountUpdated => ({
  _tag: "AccountUpdated",
  address,
  owner: program,
  slot,
  data: encodeAccount({ type: "Bundle", data: blankBundle({ totalShares }) })
})
const transaction = (signature: string, slot: number): ProgramEvents => ({
  _tag: "ProgramEvents",
  signature,
  slot,
  blockTime: 1_700_000_000 + slot,
  failed: false,
  events: [],
  writableAccounts: []
})

/** A Leadership whose role the test sets. */
const scriptedLeadership = (initial: LeadershipRole) =>
  Effect.map(SubscriptionRef.make(initial), (ref) => {
    let role = initial
    return {
      layer: Layer.succeed(Leadership, { current: () => role, changes: ref.changes }),
      set: (next: LeadershipRole) => Effect.zipRight(Effect.sync(() => (role = next)), SubscriptionRef.set(ref, next))
    }
  })

describe("ProjectionLive on a follower", () => {
  it.live("appends the transactions it sees but writes no checkpoint; once leader, its first checkpoint holds every account it changed", () =>
    Effect.gen(function*() {
      const [a, b] = yield* Effect.all([0, 1].map(() => Effect.promise(() => generateKeyPairSigner())))
      const chain = yield* scriptedChainSource(program)
      const store = yield* memoryChainStore()
      const leadership = yield* scriptedLeadership("follower")
      const layer = ProjectionLive({ checkpointEvery: Duration.millis(20), flushEvery: Duration.millis(10) }).pipe(
        Layer.provide(Layer.mergeAll(chain.layer, store.layer, leadership.layer))
      )
      const projection = Context.get(yield* Layer.build(layer), Projection)

      yield* chain.send(
        { _tag: "SnapshotStarted", slot: 10 },
        vaultAt(a!.address, 10, 1n),
        { _tag: "SnapshotEnded", slot: 10, addresses: new Set([a!.address]) },
        { _tag: "TransactionsComplete", signature: "seam", slot: 10 },
        { _tag: "SlotAdvanced", slot: 11, completedBlockTime: 1_700_000_010 }
      )
      yield* poll(projection.status, (s) => s.status === "live", "live")
      yield* chain.send(
        transaction("tx-12", 12),
        vaultAt(b!.address, 12, 2n),
        { _tag: "TransactionsComplete", signature: "tx-12", slot: 12 },
        { _tag: "SlotAdvanced", slot: 13, completedBlockTime: 1_700_000_012 }
      )
      yield* poll(store.ref.get, (s) => s.transactions.has("tx-12"), "the follower's append")
      // several checkpoint periods pass: a follower writes none
      yield* Effect.sleep(Duration.millis(200))
      expect((yield* store.ref.get).saves).toBe(0)

      yield* leadership.set("leader")
      const saved = yield* poll(store.ref.get, (s) => s.checkpoint !== null, "the new leader's checkpoint")
      expect(saved.checkpoint?.slot).toBe(12)
      // every transaction it saw up to there is appended: its checkpoint resumes after them
      expect(saved.checkpoint?.lastSignature).toBe("tx-12")
      // both accounts: the one from the snapshot and the one changed while following
      expect([...saved.accounts.keys()].sort()).toEqual([a!.address, b!.address].sort())
    }).pipe(Effect.scoped))

  it.live("leaves out of its first checkpoint what the leader's checkpoint already holds", () =>
    Effect.gen(function*() {
      const [a, b] = yield* Effect.all([0, 1].map(() => Effect.promise(() => generateKeyPairSigner())))
      const chain = yield* scriptedChainSource(program)
      const store = yield* memoryChainStore()
      const leadership = yield* scriptedLeadership("follower")
      const layer = ProjectionLive({ checkpointEvery: Duration.millis(20), flushEvery: Duration.millis(10) }).pipe(
        Layer.provide(Layer.mergeAll(chain.layer, store.layer, leadership.layer))
      )
      const projection = Context.get(yield* Layer.build(layer), Projection)
      yield* chain.send(
        { _tag: "SnapshotStarted", slot: 10 },
        vaultAt(a!.address, 10, 1n),
        { _tag: "SnapshotEnded", slot: 10, addresses: new Set([a!.address]) },
        { _tag: "TransactionsComplete", signature: "seam", slot: 10 },
        { _tag: "SlotAdvanced", slot: 11, completedBlockTime: 1_700_000_010 }
      )
      yield* poll(projection.status, (s) => s.status === "live", "live")
      // the leader (another instance) checkpoints slot 11: account a is in it
      yield* Ref.update(store.ref, (s) => ({
        ...s,
        checkpoint: { genesisHash: "genesis-a", programId: program, slot: 11, blockTime: 1_700_000_010, lastSignature: "seam" }
      }))
      // read every checkpoint period (20 ms here); the next slot publishes it on the status
      yield* Effect.sleep(Duration.millis(100))
      yield* chain.send({ _tag: "SlotAdvanced", slot: 12, completedBlockTime: 1_700_000_011 })
      yield* poll(projection.status, (s) => s.checkpointSlot === 11, "the leader's checkpoint slot on this follower's status")
      yield* chain.send(vaultAt(b!.address, 13, 2n), { _tag: "SlotAdvanced", slot: 14, completedBlockTime: 1_700_000_013 })
      yield* poll(projection.read((state) => state.accounts.has(b!.address)), (held) => held, "b applied")

      yield* leadership.set("leader")
      const saved = yield* poll(store.ref.get, (s) => s.saves > 0, "the new leader's checkpoint")
      expect(saved.checkpoint?.slot).toBe(13)
      // only b: a was in the old leader's checkpoint already
      expect([...saved.accounts.keys()]).toEqual([b!.address])
    }).pipe(Effect.scoped))
})

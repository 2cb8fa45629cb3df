import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Effect, Layer, Option, Stream } from "effect"
import { randomBytes } from "node:crypto"
import { ChainStoreLive } from "../../../layers/postgres/ChainStoreLive.ts"
import { type Checkpoint, ChainStore, type StoredAccount } from "../../../services/ChainStore.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

const checkpointAt = (slot: number): Checkpoint => ({
  genesisHash: "genesis",
  programId: NTBUNDLE_PROGRAM_ID,
  slot,
  blockTime: 1_760_000_000 + slot,
  lastSignature: `sig-at-${slot}`
})

const accountAt = (address: string, slot: number): StoredAccount => ({
  address,
  owner: NTBUNDLE_PROGRAM_ID,
  slot,
  data: randomBytes(64),
  vault: null
})

const stored = Effect.flatMap(ChainStore, (store) => Stream.runCollect(store.checkpointedAccounts)).pipe(
  Effect.map((chunk) => new Map(Chunk.toReadonlyArray(chunk).map((account) => [account.address, account] as const)))
)

const hex = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString("hex"))

layer(ChainStoreLive.pipe(Layer.provideMerge(TestDatabase)), { timeout: 120_000 })("checkpoint writes guarded by slot", (it) => {
  describe("two writers (a new leader and one that lost its lock without knowing yet)", () => {
    it.effect("an older checkpoint never moves the position back nor overwrites a newer account; its newer accounts land", () =>
      Effect.gen(function*() {
        const store = yield* ChainStore
        yield* store.discardAll
        const newer = accountAt("A", 190)
        yield* store.saveCheckpoint(checkpointAt(200), [newer, accountAt("B", 100)], [])

        // the lagging writer: an older A, a newer B and a C nobody wrote yet
        const olderA = accountAt("A", 140)
        const newerB = accountAt("B", 145)
        const c = accountAt("C", 145)
        yield* store.saveCheckpoint(checkpointAt(150), [olderA, newerB, c], [])

        expect(Option.map(yield* store.loadCheckpoint, (position) => position.slot)).toEqual(Option.some(200))
        expect(Option.map(yield* store.loadCheckpoint, (position) => position.lastSignature)).toEqual(Option.some("sig-at-200"))
        const accounts = yield* stored
        expect(accounts.get("A")?.slot).toBe(190)
        expect(hex(accounts.get("A")?.data)).toBe(hex(newer.data))
        expect(accounts.get("B")?.slot).toBe(145)
        expect(hex(accounts.get("B")?.data)).toBe(hex(newerB.data))
        expect(accounts.get("C")?.slot).toBe(145)

        // the same slot again is allowed (the writer's next checkpoint when the chain stood still)
        yield* store.saveCheckpoint(checkpointAt(200), [accountAt("D", 200)], [])
        expect((yield* stored).has("D")).toBe(true)
        // and a newer one moves on
        yield* store.saveCheckpoint(checkpointAt(260), [], [])
        expect(Option.map(yield* store.loadCheckpoint, (position) => position.slot)).toEqual(Option.some(260))
      }))

    it.effect("racing writers: whatever the order they commit in, the newest position and accounts win", () =>
      Effect.gen(function*() {
        const store = yield* ChainStore
        for (let round = 0; round < 10; round++) {
          yield* store.discardAll
          const base = 1_000 * (round + 1)
          const writes = [0, 1, 2, 3].map((lag) =>
            store.saveCheckpoint(checkpointAt(base - lag), [accountAt("X", base - lag), accountAt("Y", base - 3 + lag)], [])
          )
          // different start orders each round
          yield* Effect.all(round % 2 === 0 ? writes : writes.reverse(), { concurrency: "unbounded", discard: true })
          expect(Option.map(yield* store.loadCheckpoint, (position) => position.slot)).toEqual(Option.some(base))
          const accounts = yield* stored
          expect(accounts.get("X")?.slot).toBe(base)
          expect(accounts.get("Y")?.slot).toBe(base)
        }
      }))
  })
})

import { Effect, Layer, Option, Ref, Stream } from "effect"
import type { ProgramEvents } from "../../../services/ChainSource.ts"
import { ChainStore, type Checkpoint, type StoredAccount } from "../../../services/ChainStore.ts"

export interface MemoryChainStoreState {
  checkpoint: Checkpoint | null
  readonly accounts: Map<string, StoredAccount>
  readonly transactions: Map<string, ProgramEvents>
  saves: number
}

/** ChainStore kept in memory, for tests of the projection logic that do not exercise PostgreSQL. */
export const memoryChainStore = (initial?: Partial<MemoryChainStoreState>) =>
  Effect.gen(function*() {
    const ref = yield* Ref.make<MemoryChainStoreState>({
      checkpoint: initial?.checkpoint ?? null,
      accounts: initial?.accounts ?? new Map(),
      transactions: initial?.transactions ?? new Map(),
      saves: 0
    })
    const layer = Layer.succeed(ChainStore, {
      loadCheckpoint: Effect.map(Ref.get(ref), (s) => Option.fromNullable(s.checkpoint)),
      checkpointedAccounts: Stream.unwrap(Effect.map(Ref.get(ref), (s) => Stream.fromIterable([...s.accounts.values()]))),
      saveCheckpoint: (checkpoint, changed, removed) =>
        Ref.update(ref, (s) => {
          for (const account of changed) s.accounts.set(account.address, account)
          for (const address of removed) s.accounts.delete(address)
          return { ...s, checkpoint, saves: s.saves + 1 }
        }),
      appendTransactions: (txs) =>
        Ref.update(ref, (s) => {
          for (const tx of txs) if (!s.transactions.has(tx.signature)) s.transactions.set(tx.signature, tx)
          return s
        }),
      hasTransactions: Effect.map(Ref.get(ref), (s) => s.transactions.size > 0),
      discardAll: Ref.update(ref, (s) => {
        s.accounts.clear()
        s.transactions.clear()
        return { ...s, checkpoint: null }
      })
    })
    return { ref, layer }
  })

import { Effect, Layer, Queue, Stream } from "effect"
import { type AccountUpdated, type ChainEvent, ChainSource, type ResumePoint } from "../../../services/ChainSource.ts"

/**
 * A ChainSource whose stream the test feeds event by event, and whose account fetches answer from
 * a map the test controls (the chain's truth).
 */
export const scriptedChainSource = (programId: string, genesisHash = "genesis-a") =>
  Effect.gen(function*() {
    const feed = yield* Queue.unbounded<ChainEvent>()
    const resumes: Array<ResumePoint> = []
    const fetches: Array<ReadonlyArray<string>> = []
    const truth = new Map<string, AccountUpdated>()
    const layer = Layer.succeed(ChainSource, {
      programId,
      origin: { rpcUrl: "http://127.0.0.1:1", wsUrl: "ws://127.0.0.1:2" },
      genesisHash: Effect.succeed(genesisHash),
      blockTime: () => Effect.succeed(null),
      events: (resume) => {
        resumes.push(resume)
        return Stream.fromQueue(feed)
      },
      fetchAccounts: (addresses) =>
        Effect.sync(() => {
          fetches.push(addresses)
          return addresses.map(
            (address): AccountUpdated =>
              truth.get(address) ?? { _tag: "AccountUpdated", address, owner: "", slot: 0, data: new Uint8Array() }
          )
        })
    })
    return { feed, resumes, fetches, truth, layer, send: (...events: ReadonlyArray<ChainEvent>) => Queue.offerAll(feed, events) }
  })

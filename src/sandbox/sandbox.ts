import { SandboxChain, type ChainOptions } from "./chain.ts"
import { createControl } from "./control.ts"
import type { Seed } from "./crypto/random.ts"
import { Faults } from "./faults.ts"
import type { Ledger } from "./ledger/ledger.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID } from "./programs/ids.ts"
import { Notifier } from "./pubsub/notifier.ts"
import { Outbox } from "./pubsub/outbox.ts"
import { SubscriptionRegistry } from "./pubsub/subscriptions.ts"
import { listenPubSub, type PubSubServer } from "./pubsub/wsServer.ts"
import type { SendOutcome, SubmitRequest } from "./runtime/processor.ts"
import { RpcDispatcher } from "./rpc/dispatcher.ts"
import { mintDecimalsFrom } from "./rpc/environment.ts"
import { listenHttpRpc, type HttpRpcServer } from "./rpc/httpServer.ts"
import { journaledControl, journaledProcessor, type SandboxJournal } from "./journal.ts"
import { SlotTicker } from "./ticker.ts"

/**
 * Starts the sandbox in-process: the chain, JSON-RPC over HTTP on `port` and PubSub over
 * WebSocket on `port + 1` (as a Solana node lays them out), on loopback by default.
 * `port: 0` picks a free pair. `close()` stops the clock and closes every socket.
 */
export interface SandboxOptions {
  readonly host?: string
  readonly port?: number
  readonly seed?: Seed
  readonly slotMs?: number
  /** "auto" (default): a slot every slotMs; "manual": slots advance only by step / sandbox_step. */
  readonly clock?: "auto" | "manual"
  readonly programId?: string
  readonly firstSlot?: number
  readonly finalityLagSlots?: number
  readonly genesisUnixMs?: number
  readonly runId?: string
  readonly transactionRetention?: number
  /** A chain prepared beforehand (genesis accounts, programs, wallets); options above that shape a chain are then ignored. */
  readonly chain?: SandboxChain
  /** Persists the chain: slots, sent transactions and faucet writes are journaled before they take effect. */
  readonly journal?: SandboxJournal
}

export interface SandboxHandle {
  readonly rpcUrl: string
  readonly wsUrl: string
  readonly rpcPort: number
  readonly wsPort: number
  readonly clockMode: "auto" | "manual"
  readonly chain: SandboxChain
  readonly ledger: Ledger
  readonly faults: Faults
  readonly subscriptionCount: () => number
  /** Signs with the given keypairs and sends through the sendTransaction path. */
  readonly submit: (request: SubmitRequest) => SendOutcome
  /** Advances `slots` slots now (in either clock mode), running due slot tasks; returns the tip. */
  readonly step: (slots?: number) => number
  /** Sends queued notifications now instead of at the next microtask. */
  readonly flushNotifications: () => void
  readonly close: () => Promise<void>
}

const DEFAULT_SLOT_MS = 400
const PORT_ATTEMPTS = 50

export const createSandboxChain = (options: SandboxOptions = {}): SandboxChain => {
  const chainOptions: ChainOptions = {
    seed: options.seed ?? 1,
    programId: options.programId ?? DEFAULT_NTBUNDLE_PROGRAM_ID,
    slotMs: options.slotMs ?? DEFAULT_SLOT_MS,
    ...(options.firstSlot === undefined ? {} : { firstSlot: options.firstSlot }),
    ...(options.finalityLagSlots === undefined ? {} : { finalityLagSlots: options.finalityLagSlots }),
    ...(options.genesisUnixMs === undefined ? {} : { genesisUnixMs: options.genesisUnixMs }),
    ...(options.runId === undefined ? {} : { runId: options.runId }),
    ...(options.transactionRetention === undefined ? {} : { transactionRetention: options.transactionRetention })
  }
  return new SandboxChain(chainOptions)
}

export const startSandbox = async (options: SandboxOptions = {}): Promise<SandboxHandle> => {
  const host = options.host ?? "127.0.0.1"
  const chain = options.chain ?? createSandboxChain(options)
  const clockMode = options.clock ?? "auto"
  const faults = new Faults(chain.seed)
  const registry = new SubscriptionRegistry()
  const outbox = new Outbox(faults)
  const notifier = new Notifier(chain.ledger, registry, outbox, mintDecimalsFrom(chain.ledger))
  const stopNotifying = chain.ledger.subscribe(notifier.onLedgerEvent)
  const journal = options.journal
  const step = (slots = 1): number => {
    journal?.append({ slots })
    return chain.step(slots)
  }

  let urls = { rpcUrl: "", wsUrl: "" }
  const plainControl = createControl({ chain, faults, urls: () => urls, clockMode, step })
  const control = journal === undefined ? plainControl : journaledControl(plainControl, journal)
  const processor = journal === undefined ? chain.processor : journaledProcessor(chain.processor, journal)
  const dispatcher = new RpcDispatcher({ ledger: chain.ledger, programs: chain.programs, processor, control })

  const servers = listenPair(host, options.port ?? 0, (port) => listenHttpRpc(host, port, dispatcher, faults), (port) => listenPubSub(host, port, registry, notifier, faults))
  if (servers === undefined) {
    stopNotifying()
    throw new Error(`sandbox: cannot listen on ${host}:${options.port ?? 0} and the port after it`)
  }
  const [http, pubsub] = servers
  urls = { rpcUrl: `http://${host}:${http.port}`, wsUrl: `ws://${host}:${pubsub.port}` }

  const ticker = new SlotTicker(chain.slotMs, (slots) => step(slots))
  if (clockMode === "auto") ticker.start()

  let closed = false
  return {
    ...urls,
    rpcPort: http.port,
    wsPort: pubsub.port,
    clockMode,
    chain,
    ledger: chain.ledger,
    faults,
    subscriptionCount: () => registry.size,
    submit: (request) => chain.submit(request),
    step,
    flushNotifications: () => outbox.flush(),
    close: async () => {
      if (closed) return
      closed = true
      ticker.stop()
      stopNotifying()
      outbox.close()
      pubsub.close()
      http.close()
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

/** Listens HTTP on a port and PubSub on the next one; with port 0, tries free ports until a pair is found. */
const listenPair = (
  host: string,
  port: number,
  listenHttp: (port: number) => HttpRpcServer | undefined,
  listenWs: (port: number) => PubSubServer | undefined
): readonly [HttpRpcServer, PubSubServer] | undefined => {
  for (let attempt = 0; attempt < (port === 0 ? PORT_ATTEMPTS : 1); attempt++) {
    const http = listenHttp(port)
    if (http === undefined) continue
    const pubsub = listenWs(http.port + 1)
    if (pubsub !== undefined) return [http, pubsub]
    http.close()
  }
  return undefined
}

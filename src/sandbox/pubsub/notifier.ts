import { stringifyJson } from "../codec/json.ts"
import type { AccountRecord } from "../ledger/accountStore.ts"
import type { Ledger, LedgerEvent } from "../ledger/ledger.ts"
import type { TransactionRecord } from "../ledger/transactionStore.ts"
import { encodeAccount, type MintDecimals } from "../rpc/accountJson.ts"
import { matchesFilters } from "../rpc/filters.ts"
import type { Outbox } from "./outbox.ts"
import type { AccountView, Subscription, SubscriptionRegistry } from "./subscriptions.ts"

/**
 * Turns ledger events into PubSub notifications, shaped as Solana's. Each account state is
 * encoded once per distinct (encoding, dataSlice) among its subscribers, each transaction's logs
 * once; only the subscription id differs per message.
 *
 * Timing: processed and confirmed subscribers hear of a write when it lands, stamped with the
 * slot it landed in; finalized subscribers hear of it once that slot is finalized. A closed
 * account (zero lamports) is announced to its account subscribers as lamports 0, System-owned,
 * no data, and not to program subscribers (its owner is no longer the program), as on Solana.
 * Approximation: only accounts whose state changed are announced (a node also re-announces
 * writable accounts a transaction left unchanged).
 */
interface Deferred {
  readonly slot: number
  readonly subscription: Subscription
  readonly message: string
}

const viewKey = (view: AccountView): string => (view.slice === undefined ? view.encoding : `${view.encoding}:${view.slice.offset}:${view.slice.length}`)

export class Notifier {
  private readonly deferred: Deferred[] = []

  constructor(
    private readonly ledger: Ledger,
    private readonly registry: SubscriptionRegistry,
    private readonly outbox: Outbox,
    private readonly mintDecimals: MintDecimals
  ) {}

  readonly onLedgerEvent = (event: LedgerEvent): void => {
    if (event.kind === "slot") return this.onSlot(event.slot, event.parent, event.root)
    for (const { address, record } of event.writes) this.onAccountWrite(event.slot, address, record)
    if (event.transaction !== undefined) this.onTransaction(event.transaction)
  }

  /** For a new signature subscription: answer at once if the transaction already landed. */
  signatureSubscribed(subscription: Subscription & { readonly kind: "signature" }): void {
    const record = this.ledger.transactions.get(subscription.signature)
    if (record === undefined) return
    this.registry.remove(subscription.id, "signature", subscription.connection)
    this.send(subscription, record.slot, signatureMessage(record, subscription.id))
  }

  private onAccountWrite(slot: number, address: string, record: AccountRecord): void {
    const accountSubscribers = this.registry.accountSubscribers(address)
    const programSubscribers = record.lamports === 0n ? undefined : this.registry.programSubscribers(record.owner)
    if (accountSubscribers.size === 0 && (programSubscribers === undefined || programSubscribers.size === 0)) return
    const encoded = new Map<string, string>()
    const encode = (view: AccountView): string => {
      const key = viewKey(view)
      let json = encoded.get(key)
      if (json === undefined) {
        json = encodeAccount(record, view.encoding, view.slice, this.mintDecimals)
        encoded.set(key, json)
      }
      return json
    }
    const head = `{"jsonrpc":"2.0","method":`
    for (const subscription of accountSubscribers) {
      if (subscription.kind !== "account") continue
      this.send(subscription, slot, `${head}"accountNotification","params":{"result":{"context":{"slot":${slot}},"value":${encode(subscription)}},"subscription":${subscription.id}}}`)
    }
    if (programSubscribers === undefined) return
    for (const subscription of programSubscribers) {
      if (subscription.kind !== "program" || !matchesFilters(record.data, subscription.filters)) continue
      this.send(
        subscription,
        slot,
        `${head}"programNotification","params":{"result":{"context":{"slot":${slot}},"value":{"pubkey":"${address}","account":${encode(subscription)}}},"subscription":${subscription.id}}}`
      )
    }
  }

  private onTransaction(record: TransactionRecord): void {
    const listeners = new Set<Subscription>(this.registry.allLogs)
    if (this.registry.hasLogsMentions) {
      for (const key of record.accountKeys) for (const subscription of this.registry.logsSubscribersMentioning(key)) listeners.add(subscription)
    }
    if (listeners.size > 0) {
      const value = stringifyJson({ signature: record.signature, err: record.err, logs: record.logs })
      for (const subscription of listeners) {
        this.send(subscription, record.slot, `{"jsonrpc":"2.0","method":"logsNotification","params":{"result":{"context":{"slot":${record.slot}},"value":${value}},"subscription":${subscription.id}}}`)
      }
    }
    for (const subscription of Array.from(this.registry.signatureSubscribers(record.signature))) {
      this.registry.remove(subscription.id, "signature", subscription.connection)
      this.send(subscription, record.slot, signatureMessage(record, subscription.id))
    }
  }

  private onSlot(slot: number, parent: number, root: number): void {
    for (const subscription of this.registry.slots) {
      this.outbox.enqueue(subscription.connection, `{"jsonrpc":"2.0","method":"slotNotification","params":{"result":{"parent":${parent},"root":${root},"slot":${slot}},"subscription":${subscription.id}}}`)
    }
    let released = 0
    while (released < this.deferred.length && this.deferred[released]!.slot <= root) {
      const { subscription, message } = this.deferred[released++]!
      // A signature subscription ends with its notification; others may have been cancelled meanwhile.
      if (subscription.kind === "signature" || this.registry.has(subscription.id)) this.outbox.enqueue(subscription.connection, message)
    }
    if (released > 0) this.deferred.splice(0, released)
  }

  private send(subscription: Subscription, slot: number, message: string): void {
    if (subscription.commitment === "finalized" && slot > this.ledger.clock.finalizedSlot) {
      this.deferred.push({ slot, subscription, message })
      return
    }
    this.outbox.enqueue(subscription.connection, message)
  }
}

const signatureMessage = (record: TransactionRecord, id: number): string =>
  `{"jsonrpc":"2.0","method":"signatureNotification","params":{"result":{"context":{"slot":${record.slot}},"value":{"err":${stringifyJson(record.err)}}},"subscription":${id}}}`

import type { Commitment } from "../ledger/chainClock.ts"
import type { AccountEncoding, DataSlice } from "../rpc/accountJson.ts"
import type { AccountFilter } from "../rpc/filters.ts"
import type { Connection } from "./outbox.ts"

/** Live subscriptions, indexed by what they watch so that a write finds its subscribers in O(matches). */
interface Common {
  readonly id: number
  readonly connection: Connection
  readonly commitment: Commitment
}

export interface AccountView {
  readonly encoding: AccountEncoding
  readonly slice: DataSlice | undefined
}

export type Subscription =
  | (Common & AccountView & { readonly kind: "account"; readonly address: string })
  | (Common & AccountView & { readonly kind: "program"; readonly programId: string; readonly filters: ReadonlyArray<AccountFilter> })
  | (Common & { readonly kind: "logs"; readonly mentions: string | undefined })
  | (Common & { readonly kind: "signature"; readonly signature: string })
  | (Common & { readonly kind: "slot" })

export type SubscriptionKind = Subscription["kind"]

type Index = Map<string, Set<Subscription>>

const addTo = (index: Index, key: string, subscription: Subscription): void => {
  let set = index.get(key)
  if (set === undefined) {
    set = new Set()
    index.set(key, set)
  }
  set.add(subscription)
}

const removeFrom = (index: Index, key: string, subscription: Subscription): void => {
  const set = index.get(key)
  set?.delete(subscription)
  if (set?.size === 0) index.delete(key)
}

const NONE: ReadonlySet<Subscription> = new Set()

export class SubscriptionRegistry {
  private nextId = 0
  private readonly byId = new Map<number, Subscription>()
  private readonly byConnection = new Map<Connection, Set<number>>()
  private readonly accounts: Index = new Map()
  private readonly programs: Index = new Map()
  private readonly logsMentioning: Index = new Map()
  private readonly signatures: Index = new Map()
  readonly allLogs = new Set<Subscription>()
  readonly slots = new Set<Subscription>()

  /** Allocates the id and registers the subscription that `create` builds with it. */
  add(create: (id: number) => Subscription): Subscription {
    const subscription = create(this.nextId++)
    this.byId.set(subscription.id, subscription)
    let ids = this.byConnection.get(subscription.connection)
    if (ids === undefined) {
      ids = new Set()
      this.byConnection.set(subscription.connection, ids)
    }
    ids.add(subscription.id)
    switch (subscription.kind) {
      case "account":
        addTo(this.accounts, subscription.address, subscription)
        break
      case "program":
        addTo(this.programs, subscription.programId, subscription)
        break
      case "logs":
        if (subscription.mentions === undefined) this.allLogs.add(subscription)
        else addTo(this.logsMentioning, subscription.mentions, subscription)
        break
      case "signature":
        addTo(this.signatures, subscription.signature, subscription)
        break
      case "slot":
        this.slots.add(subscription)
    }
    return subscription
  }

  /** Removes a subscription of that kind held by that connection; false if there is none. */
  remove(id: number, kind: SubscriptionKind, connection: Connection): boolean {
    const subscription = this.byId.get(id)
    if (subscription === undefined || subscription.kind !== kind || subscription.connection !== connection) return false
    this.drop(subscription)
    return true
  }

  removeConnection(connection: Connection): void {
    for (const id of this.byConnection.get(connection) ?? []) {
      const subscription = this.byId.get(id)
      if (subscription !== undefined) this.drop(subscription)
    }
    this.byConnection.delete(connection)
  }

  get size(): number {
    return this.byId.size
  }

  has(id: number): boolean {
    return this.byId.has(id)
  }

  accountSubscribers(address: string): ReadonlySet<Subscription> {
    return this.accounts.get(address) ?? NONE
  }

  programSubscribers(programId: string): ReadonlySet<Subscription> {
    return this.programs.get(programId) ?? NONE
  }

  logsSubscribersMentioning(address: string): ReadonlySet<Subscription> {
    return this.logsMentioning.get(address) ?? NONE
  }

  signatureSubscribers(signature: string): ReadonlySet<Subscription> {
    return this.signatures.get(signature) ?? NONE
  }

  get hasLogsMentions(): boolean {
    return this.logsMentioning.size > 0
  }

  private drop(subscription: Subscription): void {
    this.byId.delete(subscription.id)
    this.byConnection.get(subscription.connection)?.delete(subscription.id)
    switch (subscription.kind) {
      case "account":
        removeFrom(this.accounts, subscription.address, subscription)
        break
      case "program":
        removeFrom(this.programs, subscription.programId, subscription)
        break
      case "logs":
        if (subscription.mentions === undefined) this.allLogs.delete(subscription)
        else removeFrom(this.logsMentioning, subscription.mentions, subscription)
        break
      case "signature":
        removeFrom(this.signatures, subscription.signature, subscription)
        break
      case "slot":
        this.slots.delete(subscription)
    }
  }
}

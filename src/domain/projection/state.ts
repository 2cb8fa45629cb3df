import { type Address, getAddressEncoder } from "@solana/kit"
import { Either } from "effect"
import {
  type Bundle,
  type BundleTempData,
  decodeBundleTempData,
  decodeOracleData,
  decodeReferrerAccount,
  type OracleData,
  type ReferrerAccount
} from "../../ntbundle/accounts.ts"
import { decodeBase58Bytes32 } from "../../ntbundle/base58.ts"
import { findBundleTempDataPda, findOraclePda } from "../../ntbundle/pdas.ts"
import type { AsOf } from "../chainPosition.ts"
import type { AccountUpdate } from "./accountUpdate.ts"
import { decodeBundleFast } from "./accountDecoders.ts"
import { type AccountKind, accountKind } from "./accountKind.ts"
import type { ProjectionChange } from "./changes.ts"
import { type Cohort, NestedMap, SetIndex, SortedSet } from "./indexes.ts"
import { applyPriceAccount, isPriceAccountUpdate, type PriceAccount } from "./priceAccounts.ts"
import { ownerBytes, readOwner, readReferrer, readShares, sameOwnerAndReferrer } from "./userFields.ts"
import { findUserVault } from "./userVault.ts"

/** One program account as the chain last showed it: the raw bytes are the source of truth. */
interface RawAccountBase {
  readonly owner: string
  readonly slot: number
  readonly data: Uint8Array
  /** A UserBundleAccount's vault (derived from its address), null when unknown or not a position. */
  readonly vault: string | null
}

/**
 * A UserBundleAccount keeps its owner wallet and bound builder (null: none) as indexed, because
 * most updates of a position change neither, and reading them again from the bytes meant a base58
 * encoding per update.
 */
export interface PositionAccount extends RawAccountBase {
  readonly kind: "UserBundleAccount"
  readonly wallet: string
  readonly referrer: string | null
}

export type RawAccount =
  | PositionAccount
  | (RawAccountBase & { readonly kind: Exclude<AccountKind, "UserBundleAccount">; readonly wallet: null; readonly referrer: null })

export interface VaultView {
  readonly address: string
  readonly oracleAddress: string
  readonly tempAddress: string
  bundle: Bundle
  oracle: OracleData | null
  temp: BundleTempData | null
}

export interface UserEntry {
  readonly vault: string | null
  readonly owner: string
  readonly referrer: string | null
  readonly shares: bigint
}

const userEntryOf = (account: PositionAccount): UserEntry => ({
  vault: account.vault,
  owner: account.wallet,
  referrer: account.referrer,
  shares: readShares(account.data)
})

/**
 * The positions as a read-only map, derived on demand from the raw accounts: holding a decoded
 * copy of a million positions would double the projection's memory.
 */
class UserView implements ReadonlyMap<string, UserEntry> {
  constructor(private readonly accounts: ReadonlyMap<string, RawAccount>, private readonly count: () => number) {}

  get size(): number {
    return this.count()
  }

  get(address: string): UserEntry | undefined {
    const account = this.accounts.get(address)
    return account?.kind === "UserBundleAccount" ? userEntryOf(account) : undefined
  }

  has(address: string): boolean {
    return this.accounts.get(address)?.kind === "UserBundleAccount"
  }

  *entries(): MapIterator<[string, UserEntry]> {
    for (const [address, account] of this.accounts) {
      if (account.kind === "UserBundleAccount") yield [address, userEntryOf(account)]
    }
  }

  *keys(): MapIterator<string> {
    for (const [address] of this.entries()) yield address
  }

  *values(): MapIterator<UserEntry> {
    for (const [, entry] of this.entries()) yield entry
  }

  forEach(callback: (value: UserEntry, key: string, map: ReadonlyMap<string, UserEntry>) => void): void {
    for (const [address, entry] of this.entries()) callback(entry, address, this)
  }

  [Symbol.iterator](): MapIterator<[string, UserEntry]> {
    return this.entries()
  }
}

export interface ReferrerEntry {
  readonly wallet: string
  readonly vault: string
  readonly account: ReferrerAccount
}

const addressEncoder = getAddressEncoder()
const NO_CHANGES: ReadonlyArray<ProjectionChange> = []

/**
 * The in-memory projection: raw program accounts plus the decoded views and indexes reads need, so
 * that a read costs O(answer). Mutable and owned by one writer (the projection writer); readers only read.
 */
export class ProjectionState {
  readonly accounts = new Map<string, RawAccount>()
  readonly vaults = new Map<string, VaultView>()
  #userCount = 0
  /** UserBundleAccounts (positions) by address. */
  readonly users: ReadonlyMap<string, UserEntry> = new UserView(this.accounts, () => this.#userCount)
  readonly referrers = new Map<string, ReferrerEntry>()
  /** owner wallet -> its UserBundleAccount addresses */
  readonly positionsByOwner = new SetIndex()
  /** builder wallet -> vault -> bound users and their share sum */
  readonly cohorts = new NestedMap<Cohort>()
  /** builder wallet -> vault -> ReferrerAccount address */
  readonly registrations = new NestedMap<string>()
  /** vault -> builder wallets registered in it or with users bound in it */
  readonly referrersByVault = new SetIndex()
  /** owner wallet -> number of its positions holding shares */
  readonly activeOwners = new Map<string, number>()
  /** Accounts of the program whose layout we do not know (counted, never decoded). */
  readonly unrecognised = new Set<string>()
  /** Watched Pyth price accounts by address: kept apart from the program's accounts, never indexed as them. */
  readonly priceAccounts = new Map<string, PriceAccount>()

  asOf: AsOf | null = null
  /** Bumped on every applied change: lets readers cache encodings per version. */
  version = 0

  readonly #programBytes: Uint8Array
  readonly #vaultOfPda = new Map<string, string>()
  readonly #vaultKeys: Array<string> = []
  readonly #vaultKeyBytes: Array<Uint8Array> = []
  readonly #unresolvedUsers = new Set<string>()

  constructor(readonly programId: Address) {
    this.#programBytes = new Uint8Array(addressEncoder.encode(programId))
  }

  /** Users whose vault could not be determined yet (their Bundle not seen so far). */
  get unresolvedUsers(): ReadonlySet<string> {
    return this.#unresolvedUsers
  }

  /**
   * Applies one account update unless the stored version is newer; returns what changed.
   * `vaultHint` is a UserBundleAccount's vault when already known (from a checkpoint), which saves
   * deriving it again.
   */
  apply(update: AccountUpdate, vaultHint: string | null = null): ReadonlyArray<ProjectionChange> {
    if (isPriceAccountUpdate(update, this.priceAccounts)) {
      // A price moves USD values only: readers see it through the version, no change is published.
      if (applyPriceAccount(this.priceAccounts, update)) this.version++
      return NO_CHANGES
    }
    const previous = this.accounts.get(update.address)
    if (previous !== undefined && update.slot < previous.slot) return NO_CHANGES
    if (previous !== undefined && this.#isPositionUpdateInPlace(previous, update, vaultHint)) {
      return this.#updatePositionInPlace(update, previous)
    }
    const changes: Array<ProjectionChange> = []
    if (previous !== undefined) this.#unindex(update.address, previous, changes)
    const knownVault = vaultHint ?? previous?.vault ?? null
    if (update.data.length === 0 || update.owner !== this.programId) {
      this.accounts.delete(update.address)
      if (previous?.kind === "Bundle" && this.vaults.delete(update.address)) {
        changes.push({ _tag: "VaultChanged", vault: update.address })
      }
    } else {
      const kind = accountKind(update.data)
      const { owner, slot, data } = update
      const account: RawAccount = kind === "UserBundleAccount"
        ? {
          owner,
          slot,
          data,
          kind,
          vault: knownVault ?? this.#resolveUserVault(update.address, data),
          wallet: readOwner(data),
          referrer: readReferrer(data)
        }
        : { owner, slot, data, kind, vault: null, wallet: null, referrer: null }
      this.accounts.set(update.address, account)
      this.#index(update.address, account, changes)
    }
    if (changes.length > 0) this.version++
    return changes
  }

  #index(address: string, account: RawAccount, changes: Array<ProjectionChange>): void {
    switch (account.kind) {
      case "Bundle":
        return this.#indexBundle(address, account.data, changes)
      case "OracleData":
      case "BundleTempData":
        return this.#linkVaultPart(address, account, changes)
      case "ReferrerAccount":
        return this.#indexReferrer(address, account.data, changes)
      case "UserBundleAccount":
        return this.#indexUser(address, account, changes)
      case "Unrecognised":
        this.unrecognised.add(address)
        return
      case "Other":
        return
    }
  }

  #unindex(address: string, account: RawAccount, changes: Array<ProjectionChange>): void {
    switch (account.kind) {
      case "UserBundleAccount":
        return this.#unindexUser(address, account, changes)
      case "ReferrerAccount": {
        const entry = this.referrers.get(address)
        if (entry === undefined) return
        this.referrers.delete(address)
        this.registrations.delete(entry.wallet, entry.vault)
        if (this.cohorts.get(entry.wallet, entry.vault) === undefined) this.referrersByVault.remove(entry.vault, entry.wallet)
        changes.push({ _tag: "ReferrerChanged", wallet: entry.wallet, vault: entry.vault })
        return
      }
      case "OracleData":
      case "BundleTempData": {
        const vault = this.vaults.get(this.#vaultOfPda.get(address) ?? "")
        if (vault === undefined) return
        if (account.kind === "OracleData") vault.oracle = null
        else vault.temp = null
        changes.push({ _tag: "VaultChanged", vault: vault.address })
        return
      }
      case "Unrecognised":
        this.unrecognised.delete(address)
        return
      case "Bundle":
      case "Other":
        return // a Bundle's view is replaced in place by its next version, or dropped when it closes
    }
  }

  #indexBundle(address: string, data: Uint8Array, changes: Array<ProjectionChange>): void {
    const decoded = decodeBundleFast(data)
    if (Either.isLeft(decoded)) {
      this.unrecognised.add(address)
      return
    }
    const existing = this.vaults.get(address)
    if (existing !== undefined) {
      existing.bundle = decoded.right
    } else {
      const vaultAddress = address as Address
      const [oracleAddress] = findOraclePda(this.programId, vaultAddress)
      const [tempAddress] = findBundleTempDataPda(this.programId, vaultAddress)
      const view: VaultView = { address, oracleAddress, tempAddress, bundle: decoded.right, oracle: null, temp: null }
      this.vaults.set(address, view)
      this.#vaultOfPda.set(oracleAddress, address)
      this.#vaultOfPda.set(tempAddress, address)
      this.#vaultKeys.push(address)
      this.#vaultKeyBytes.push(new Uint8Array(addressEncoder.encode(vaultAddress)))
      for (const part of [oracleAddress, tempAddress]) {
        const raw = this.accounts.get(part)
        if (raw !== undefined) this.#linkVaultPart(part, raw, changes)
      }
      this.#retryUnresolvedUsers(changes)
    }
    changes.push({ _tag: "VaultChanged", vault: address })
  }

  #linkVaultPart(address: string, account: RawAccount, changes: Array<ProjectionChange>): void {
    const vault = this.vaults.get(this.#vaultOfPda.get(address) ?? "")
    if (vault === undefined) return // linked when its Bundle arrives
    if (account.kind === "OracleData") {
      const decoded = decodeOracleData(account.data)
      vault.oracle = Either.getOrNull(decoded)
    } else {
      const decoded = decodeBundleTempData(account.data)
      vault.temp = Either.getOrNull(decoded)
    }
    changes.push({ _tag: "VaultChanged", vault: vault.address })
  }

  #indexReferrer(address: string, data: Uint8Array, changes: Array<ProjectionChange>): void {
    const decoded = decodeReferrerAccount(data)
    if (Either.isLeft(decoded)) {
      this.unrecognised.add(address)
      return
    }
    const account = decoded.right
    const entry: ReferrerEntry = { wallet: account.referrer, vault: account.bundle, account }
    this.referrers.set(address, entry)
    this.registrations.getOrCreate(entry.wallet, entry.vault, () => address)
    this.referrersByVault.add(entry.vault, entry.wallet)
    changes.push({ _tag: "ReferrerChanged", wallet: entry.wallet, vault: entry.vault })
  }

  #indexUser(address: string, account: PositionAccount, changes: Array<ProjectionChange>): void {
    const { wallet: owner, referrer, vault } = account
    const shares = readShares(account.data)
    this.#userCount++
    this.positionsByOwner.add(owner, address)
    if (shares > 0n) this.activeOwners.set(owner, (this.activeOwners.get(owner) ?? 0) + 1)
    if (vault !== null && referrer !== null) {
      const cohort = this.cohorts.getOrCreate(referrer, vault, () => ({ positions: new SortedSet(), shares: 0n }))
      cohort.positions.add(address)
      cohort.shares += shares
      this.referrersByVault.add(vault, referrer)
      changes.push({ _tag: "ReferrerChanged", wallet: referrer, vault, cohort: true })
    }
    changes.push({ _tag: "UserChanged", account: address, owner, vault })
  }

  /**
   * Most updates of a position move its amounts only: same owner, same builder, same vault. Those
   * keep every index entry where it is (only the share sums move), where unindexing and indexing
   * again would take the position out of its owner's set and its builder's cohort and put it back.
   */
  #isPositionUpdateInPlace(previous: RawAccount, update: AccountUpdate, vaultHint: string | null): previous is PositionAccount & { readonly vault: string } {
    return previous.kind === "UserBundleAccount" && previous.vault !== null && (vaultHint === null || vaultHint === previous.vault) &&
      update.owner === this.programId && update.data.length > 0 && accountKind(update.data) === "UserBundleAccount" &&
      sameOwnerAndReferrer(previous.data, update.data)
  }

  #updatePositionInPlace(update: AccountUpdate, previous: PositionAccount & { readonly vault: string }): ReadonlyArray<ProjectionChange> {
    const { vault, wallet: owner, referrer } = previous
    const account: RawAccount = { owner: update.owner, slot: update.slot, data: update.data, kind: "UserBundleAccount", vault, wallet: owner, referrer }
    this.accounts.set(update.address, account)
    const before = readShares(previous.data)
    const shares = readShares(update.data)
    if ((before > 0n) !== (shares > 0n)) {
      const active = (this.activeOwners.get(owner) ?? 0) + (shares > 0n ? 1 : -1)
      if (active === 0) this.activeOwners.delete(owner)
      else this.activeOwners.set(owner, active)
    }
    const changes: Array<ProjectionChange> = []
    if (referrer !== null) {
      const cohort = this.cohorts.get(referrer, vault)
      if (cohort !== undefined) cohort.shares += shares - before
      changes.push({ _tag: "ReferrerChanged", wallet: referrer, vault, cohort: true })
    }
    changes.push({ _tag: "UserChanged", account: update.address, owner, vault })
    this.version++
    return changes
  }

  #unindexUser(address: string, account: PositionAccount, changes: Array<ProjectionChange>): void {
    const { wallet: owner, referrer } = account
    const shares = readShares(account.data)
    this.#userCount--
    this.#unresolvedUsers.delete(address)
    this.positionsByOwner.remove(owner, address)
    if (shares > 0n) {
      const active = (this.activeOwners.get(owner) ?? 1) - 1
      if (active === 0) this.activeOwners.delete(owner)
      else this.activeOwners.set(owner, active)
    }
    if (account.vault !== null && referrer !== null) {
      const cohort = this.cohorts.get(referrer, account.vault)
      if (cohort !== undefined) {
        cohort.positions.delete(address)
        cohort.shares -= shares
        if (cohort.positions.size === 0) {
          this.cohorts.delete(referrer, account.vault)
          if (this.registrations.get(referrer, account.vault) === undefined) {
            this.referrersByVault.remove(account.vault, referrer)
          }
        }
      }
      changes.push({ _tag: "ReferrerChanged", wallet: referrer, vault: account.vault, cohort: true })
    }
  }

  #resolveUserVault(address: string, data: Uint8Array): string | null {
    const accountBytes = decodeBase58Bytes32(address)
    if (accountBytes === null) return null
    const index = findUserVault(this.#programBytes, ownerBytes(data), accountBytes, this.#vaultKeyBytes)
    if (index >= 0) {
      this.#unresolvedUsers.delete(address)
      return this.#vaultKeys[index]!
    }
    this.#unresolvedUsers.add(address)
    return null
  }

  #retryUnresolvedUsers(changes: Array<ProjectionChange>): void {
    for (const address of [...this.#unresolvedUsers]) {
      const raw = this.accounts.get(address)
      if (raw === undefined || raw.kind !== "UserBundleAccount") continue
      const vault = this.#resolveUserVault(address, raw.data)
      if (vault === null) continue
      this.#unindexUser(address, raw, changes)
      const resolved: RawAccount = { ...raw, vault }
      this.accounts.set(address, resolved)
      this.#indexUser(address, resolved, changes)
    }
  }
}

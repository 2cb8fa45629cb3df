import { encodeBase58Bytes32, decodeBase58Bytes32 } from "../../ntbundle/base58.ts"
import {
  USER_BUNDLE_ACCOUNT_DISCRIMINATOR,
  USER_BUNDLE_ACCOUNT_FIELDS,
  USER_BUNDLE_ACCOUNT_SIZE
} from "../../ntbundle/generated/accounts.ts"
import type { AccountUpdate } from "../../domain/projection/accountUpdate.ts"
import { fieldOffsets, offsetOf } from "../../domain/projection/fixedLayout.ts"
import { findUserVault } from "../../domain/projection/userVault.ts"

// The projectionApply baseline: the position indexes ProjectionState keeps for UserBundleAccount
// updates (vault per position, positions per owner, owners holding shares, per builder and vault the
// bound positions and their share sum, builders per vault), kept by one plain loop over the raw bytes.
// No change lists, no version, no raw-account records; each position keeps its owner and builder as
// strings so a balance-only update reads two 32-byte keys to compare and one u128.

const offsets = fieldOffsets(USER_BUNDLE_ACCOUNT_FIELDS)
const OWNER = offsetOf(offsets, "owner")
const SHARES = offsetOf(offsets, "shares")
const REFERRER = offsetOf(offsets, "referrer")

interface Position {
  slot: number
  data: Uint8Array
  readonly vault: string | null
  readonly owner: string
  readonly referrer: string | null
  shares: bigint
}

export interface PlainCohort {
  readonly positions: Set<string>
  shares: bigint
}

const isPosition = (data: Uint8Array): boolean => {
  if (data.length !== USER_BUNDLE_ACCOUNT_SIZE) return false
  for (let i = 0; i < 8; i++) if (data[i] !== USER_BUNDLE_ACCOUNT_DISCRIMINATOR[i]) return false
  return true
}

const readShares = (data: Uint8Array): bigint => {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return view.getBigUint64(SHARES, true) | (view.getBigUint64(SHARES + 8, true) << 64n)
}

const sameKey = (a: Uint8Array, b: Uint8Array, at: number): boolean => {
  for (let i = at; i < at + 32; i++) if (a[i] !== b[i]) return false
  return true
}

const isZeroKey = (data: Uint8Array, at: number): boolean => {
  for (let i = at; i < at + 32; i++) if (data[i] !== 0) return false
  return true
}

export class PlainPositionIndex {
  readonly positions = new Map<string, Position>()
  readonly positionsByOwner = new Map<string, Set<string>>()
  readonly activeOwners = new Map<string, number>()
  /** builder -> vault -> cohort */
  readonly cohorts = new Map<string, Map<string, PlainCohort>>()
  readonly referrersByVault = new Map<string, Set<string>>()
  readonly #program: Uint8Array
  readonly #vaultKeys: ReadonlyArray<string>
  readonly #vaultBytes: ReadonlyArray<Uint8Array>
  readonly #builderNames = new Map<string, string>()

  constructor(private readonly programId: string, vaults: ReadonlyArray<string>) {
    this.#program = decodeBase58Bytes32(programId)!
    this.#vaultKeys = vaults
    this.#vaultBytes = vaults.map((vault) => decodeBase58Bytes32(vault)!)
  }

  apply(update: AccountUpdate): void {
    const previous = this.positions.get(update.address)
    if (previous !== undefined && update.slot < previous.slot) return
    const keep = update.owner === this.programId && isPosition(update.data)
    if (keep && previous !== undefined && previous.vault !== null &&
      sameKey(previous.data, update.data, OWNER) && sameKey(previous.data, update.data, REFERRER)) {
      const shares = readShares(update.data)
      if ((previous.shares > 0n) !== (shares > 0n)) this.#countActive(previous.owner, shares > 0n ? 1 : -1)
      if (previous.referrer !== null) this.cohorts.get(previous.referrer)!.get(previous.vault)!.shares += shares - previous.shares
      previous.slot = update.slot
      previous.data = update.data
      previous.shares = shares
      return
    }
    if (previous !== undefined) this.#remove(update.address, previous)
    if (!keep) return
    const data = update.data
    const vault = previous?.vault ?? this.#vaultOf(update.address, data)
    const position: Position = {
      slot: update.slot,
      data,
      vault,
      owner: encodeBase58Bytes32(data.subarray(OWNER, OWNER + 32)),
      referrer: isZeroKey(data, REFERRER) ? null : this.#builderAt(data),
      shares: readShares(data)
    }
    this.positions.set(update.address, position)
    const owned = this.positionsByOwner.get(position.owner)
    if (owned === undefined) this.positionsByOwner.set(position.owner, new Set([update.address]))
    else owned.add(update.address)
    if (position.shares > 0n) this.#countActive(position.owner, 1)
    if (vault !== null && position.referrer !== null) {
      let byVault = this.cohorts.get(position.referrer)
      if (byVault === undefined) this.cohorts.set(position.referrer, (byVault = new Map()))
      let cohort = byVault.get(vault)
      if (cohort === undefined) byVault.set(vault, (cohort = { positions: new Set(), shares: 0n }))
      cohort.positions.add(update.address)
      cohort.shares += position.shares
      const builders = this.referrersByVault.get(vault)
      if (builders === undefined) this.referrersByVault.set(vault, new Set([position.referrer]))
      else builders.add(position.referrer)
    }
  }

  #remove(address: string, position: Position): void {
    this.positions.delete(address)
    const owned = this.positionsByOwner.get(position.owner)!
    owned.delete(address)
    if (owned.size === 0) this.positionsByOwner.delete(position.owner)
    if (position.shares > 0n) this.#countActive(position.owner, -1)
    if (position.vault === null || position.referrer === null) return
    const byVault = this.cohorts.get(position.referrer)!
    const cohort = byVault.get(position.vault)!
    cohort.positions.delete(address)
    cohort.shares -= position.shares
    if (cohort.positions.size > 0) return
    byVault.delete(position.vault)
    if (byVault.size === 0) this.cohorts.delete(position.referrer)
    const builders = this.referrersByVault.get(position.vault)!
    builders.delete(position.referrer)
    if (builders.size === 0) this.referrersByVault.delete(position.vault)
  }

  #countActive(owner: string, delta: 1 | -1): void {
    const count = (this.activeOwners.get(owner) ?? 0) + delta
    if (count === 0) this.activeOwners.delete(owner)
    else this.activeOwners.set(owner, count)
  }

  #builderAt(data: Uint8Array): string {
    const raw = Buffer.from(data.buffer, data.byteOffset + REFERRER, 32).toString("latin1")
    let name = this.#builderNames.get(raw)
    if (name === undefined) this.#builderNames.set(raw, (name = encodeBase58Bytes32(data.subarray(REFERRER, REFERRER + 32))))
    return name
  }

  #vaultOf(address: string, data: Uint8Array): string | null {
    const index = findUserVault(this.#program, data.subarray(OWNER, OWNER + 32), decodeBase58Bytes32(address)!, this.#vaultBytes)
    return index >= 0 ? this.#vaultKeys[index]! : null
  }
}

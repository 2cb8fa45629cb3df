import type { Address } from "@solana/kit"
import { findUserBundlePda } from "../../ntbundle/pdas.ts"
import type { Ledger, LedgerEvent } from "../ledger/ledger.ts"
import { DISCRIMINATOR, hasDiscriminator, referrerView, userBundleView } from "./layout.ts"

/**
 * What the keeper needs to find its work without scanning every account each run: per vault,
 * the positions (for fee charging, round robin), the positions with a pending deposit,
 * withdrawal or switch, and the builders with a pending claim. Fed by the ledger's committed writes, so it
 * sees every change whether it came from a transaction, genesis or sandbox_setAccount.
 *
 * A UserBundleAccount does not store its vault (only the PDA seeds hold it): a new one is matched
 * against the vaults its transaction mentions, or every vault for a direct write.
 */
export interface VaultWork {
  /** Position addresses in discovery order (fee charging walks it round robin). */
  readonly positions: Array<string>
  readonly pendingDeposits: Set<string>
  /** Position -> availability timestamp. */
  readonly pendingWithdrawals: Map<string, bigint>
  /** Position -> availability timestamp and target vault of its switch request. */
  readonly pendingSwitches: Map<string, { readonly availableAt: bigint; readonly target: string }>
  /** ReferrerAccount -> builder wallet. */
  readonly referrers: Map<string, string>
  /** ReferrerAccount -> availability timestamp of its pending claim. */
  readonly pendingClaims: Map<string, bigint>
  feeCursor: number
}

const emptyWork = (): VaultWork => ({
  positions: [],
  pendingDeposits: new Set(),
  pendingWithdrawals: new Map(),
  pendingSwitches: new Map(),
  referrers: new Map(),
  pendingClaims: new Map(),
  feeCursor: 0
})

export class KeeperIndex {
  private readonly work = new Map<string, VaultWork>()
  private readonly vaultOfPosition = new Map<string, string>()
  private readonly unsubscribe: () => void

  constructor(
    private readonly ledger: Ledger,
    private readonly programId: string,
    vaults: ReadonlyArray<string>
  ) {
    for (const vault of vaults) this.work.set(vault, emptyWork())
    for (const [address, record] of ledger.accounts.ownedBy(programId)) this.observe(address, record.data, undefined)
    this.unsubscribe = ledger.subscribe((event) => this.onEvent(event))
  }

  close(): void {
    this.unsubscribe()
  }

  vault(address: string): VaultWork | undefined {
    return this.work.get(address)
  }

  /** The vault a position belongs to, once the index has seen it. */
  vaultOf(position: string): string | undefined {
    return this.vaultOfPosition.get(position)
  }

  /** Registers a position whose vault is known (bulk genesis writes without notifications). */
  addPosition(vault: string, position: string): void {
    const work = this.work.get(vault)
    if (work === undefined || this.vaultOfPosition.has(position)) return
    this.vaultOfPosition.set(position, vault)
    work.positions.push(position)
  }

  private onEvent(event: LedgerEvent): void {
    if (event.kind !== "accounts") return
    for (const write of event.writes) {
      if (write.record.owner === this.programId) this.observe(write.address, write.record.data, event.transaction?.accountKeys)
    }
  }

  private observe(address: string, data: Uint8Array, mentioned: ReadonlyArray<string> | undefined): void {
    if (hasDiscriminator(data, DISCRIMINATOR.UserBundleAccount)) this.observePosition(address, data, mentioned)
    else if (hasDiscriminator(data, DISCRIMINATOR.ReferrerAccount)) this.observeReferrer(address, data)
  }

  private observePosition(address: string, data: Uint8Array, mentioned: ReadonlyArray<string> | undefined): void {
    const user = userBundleView(data)
    let vault = this.vaultOfPosition.get(address)
    if (vault === undefined) {
      const owner = user.owner
      const candidates = mentioned?.filter((key) => this.work.has(key)) ?? Array.from(this.work.keys())
      vault = candidates.find((candidate) => findUserBundlePda(this.programId as Address, owner as Address, candidate as Address)[0] === address)
      if (vault === undefined) return
      this.addPosition(vault, address)
    }
    const work = this.work.get(vault)!
    if (user.pendingDeposit > 0n) work.pendingDeposits.add(address)
    else work.pendingDeposits.delete(address)
    if (user.pendingShares > 0n && !user.switchActive) work.pendingWithdrawals.set(address, user.withdrawalAvailableTimestamp)
    else work.pendingWithdrawals.delete(address)
    if (user.pendingShares > 0n && user.switchActive) work.pendingSwitches.set(address, { availableAt: user.withdrawalAvailableTimestamp, target: user.switchTargetBundle })
    else work.pendingSwitches.delete(address)
  }

  private observeReferrer(address: string, data: Uint8Array): void {
    const referrer = referrerView(data)
    const work = this.work.get(referrer.bundle)
    if (work === undefined) return
    if (!work.referrers.has(address)) work.referrers.set(address, referrer.referrer)
    if (referrer.pendingWithdrawShares > 0n) work.pendingClaims.set(address, referrer.withdrawalAvailableTimestamp)
    else work.pendingClaims.delete(address)
  }
}

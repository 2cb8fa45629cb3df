import { AccountRole, type AccountMeta, type Address } from "@solana/kit"
import { findReferrerPda } from "../../ntbundle/pdas.ts"
import { createAssociatedTokenAccountIdempotentIx } from "../../ntbundle/ix/associatedToken.ts"
import {
  netPendingTransactionsIx,
  processDepositIx,
  processReferrerWithdrawalIx,
  processSwitchIx,
  processWithdrawalIx,
  updateOracleIx
} from "../../ntbundle/ix/keeper.ts"
import type { BuiltInstruction } from "../../ntbundle/ix/meta.ts"
import type { SandboxChain } from "../chain.ts"
import type { Keypair } from "../crypto/keypair.ts"
import type { Random } from "../crypto/random.ts"
import { fromKitInstruction } from "./kitInstruction.ts"
import type { KeeperIndex, VaultWork } from "./keeperIndex.ts"
import { bundleView, isZeroKeyAt, oracleView, tempDataView, USER_REFERRER_OFFSET, userBundleView } from "./layout.ts"
import { applyFeesToPositionIx } from "./keeperInstructions.ts"
import { createOracleWalk, type OracleWalk } from "./oracleWalk.ts"
import { vaultAddresses } from "./support.ts"
import { sendBatched, type BatchResult } from "./txBatch.ts"

/**
 * The vault keeper: on each vault's schedule it reports the oracle equity (a seeded random walk),
 * nets and processes pending deposits, pays out withdrawals and completes switches whose
 * cooldown has ended, charges
 * fees to a rotating window of positions, and settles builder claims that have become available.
 * Every step is a keeper-signed transaction through the chain's sendTransaction path, so each
 * has a signature, logs, events and notifications like any other.
 */
export interface KeeperOptions {
  readonly keeper: Keypair
  readonly vaults: ReadonlyArray<string>
  readonly index: KeeperIndex
  readonly random: Random
  /** Seconds of chain time between two runs of a vault (each vault starts at a random phase). */
  readonly intervalSeconds: number
  /** Positions charged per run and vault (round robin over all positions). */
  readonly feePositionsPerRun: number
  readonly maxDepositsPerRun: number
  readonly maxPayoutsPerRun: number
  /** apply_fees_to_user instructions packed per transaction (subject to the packet size). */
  readonly feesPerTransaction: number
  /** Wall time the keeper may spend per slot; vaults still due when it is spent run at the next slot. */
  readonly wallBudgetMs?: number
}

export interface KeeperStats {
  oracleUpdates: number
  nettings: number
  deposits: number
  withdrawals: number
  switches: number
  feeCharges: number
  claims: number
  transactions: number
  failures: number
  lastError: string | undefined
}

export class Keeper {
  readonly stats: KeeperStats = { oracleUpdates: 0, nettings: 0, deposits: 0, withdrawals: 0, switches: 0, feeCharges: 0, claims: 0, transactions: 0, failures: 0, lastError: undefined }
  private readonly walks = new Map<string, OracleWalk>()
  /** Chain time (ms) of each vault's next run. */
  private readonly nextRunAt = new Map<string, number>()
  private readonly programId: Address
  private budgetEnabled = true
  private rotation = 0

  constructor(
    private readonly chain: SandboxChain,
    private readonly options: KeeperOptions
  ) {
    this.programId = chain.programId as Address
    const nowMs = chain.ledger.clock.unixMs()
    for (const vault of options.vaults) {
      const random = options.random.fork(`keeper/${vault}`)
      this.walks.set(vault, createOracleWalk(random))
      this.nextRunAt.set(vault, nowMs + Math.floor(random.nextFloat() * options.intervalSeconds * 1000))
    }
  }

  /** Runs every vault whose time has come (registered as a per-slot task). */
  /** Turns the per-slot wall budget on or off (off while fast-forwarding history, where slots are not wall time). */
  setWallBudget(enabled: boolean): void {
    this.budgetEnabled = enabled
  }

  runDue(): void {
    const nowMs = this.chain.ledger.clock.unixMs()
    const started = performance.now()
    const budget = this.budgetEnabled ? (this.options.wallBudgetMs ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY
    // Start where the last slot stopped, so an exhausted budget does not always starve the same vaults.
    const order = this.options.vaults.map((_, index) => this.options.vaults[(index + this.rotation) % this.options.vaults.length]!)
    this.rotation = (this.rotation + 1) % Math.max(1, this.options.vaults.length)
    for (const vault of order) {
      if (performance.now() - started > budget) return
      if (nowMs < this.nextRunAt.get(vault)!) continue
      this.nextRunAt.set(vault, nowMs + this.options.intervalSeconds * 1000)
      this.runVault(vault)
    }
  }

  runVault(vault: string): void {
    const work = this.options.index.vault(vault)
    const account = this.chain.ledger.getAccount(vault)
    if (work === undefined || account === undefined) return
    const mint = bundleView(account.data).assetAddress
    this.updateOracle(vault, mint)
    this.processDeposits(vault, mint, work)
    this.payOut(vault, mint, work)
    this.chargeFees(vault, mint, work)
  }

  private get now(): bigint {
    return BigInt(this.chain.ledger.clock.blockTime())
  }

  private target(vault: string, remainingAccounts?: ReadonlyArray<AccountMeta>) {
    return { program: this.programId, bundle: vault as Address, keeper: this.options.keeper.address as Address, ...(remainingAccounts === undefined ? {} : { remainingAccounts }) }
  }

  private read(address: string): Uint8Array | undefined {
    return this.chain.ledger.getAccount(address)?.data
  }

  private ownerOf(position: string): Address {
    return userBundleView(this.read(position)!).owner as Address
  }

  /** The referred position's ReferrerAccount, passed after the IDL accounts. */
  private referrerMeta(vault: string, position: Uint8Array): ReadonlyArray<AccountMeta> | undefined {
    if (isZeroKeyAt(position, USER_REFERRER_OFFSET)) return undefined
    const referrer = userBundleView(position).referrer as Address
    return [{ address: findReferrerPda(this.programId, vault as Address, referrer)[0], role: AccountRole.WRITABLE }]
  }

  private send(groups: ReadonlyArray<ReadonlyArray<BuiltInstruction>>, perTransaction = 1): BatchResult {
    const result = sendBatched((request) => this.chain.submit(request), this.options.keeper, groups.map((group) => group.map(fromKitInstruction)), {
      maxGroupsPerTransaction: perTransaction
    })
    this.stats.transactions += result.transactions
    this.stats.failures += result.failed
    if (result.lastError !== undefined) this.stats.lastError = result.lastError
    return result
  }

  private updateOracle(vault: string, mint: string): void {
    const pdas = vaultAddresses(this.programId, vault, mint)
    const bundleData = this.read(vault)
    const oracleData = this.read(pdas.oracleData)
    if (bundleData === undefined || oracleData === undefined) return
    const bundle = bundleView(bundleData)
    const oracle = oracleView(oracleData)
    const elapsed = this.now - oracle.lastUpdateTime
    if (bundle.oracleUpdateTimeLimit > 0n && elapsed < bundle.oracleUpdateTimeLimit) return
    const newEquity = this.walks.get(vault)!.next({
      underlying: bundle.bundleUnderlyingBalance,
      externalEquity: oracle.averageExternalEquity,
      elapsedSeconds: Number(elapsed),
      maxMoveBps: bundle.oracleBuffer
    })
    this.stats.oracleUpdates += this.send([[updateOracleIx({ ...this.target(vault), newEquity })]]).landed
  }

  private processDeposits(vault: string, mint: string, work: VaultWork): void {
    if (work.pendingDeposits.size === 0) return
    const temp = tempDataView(this.read(vaultAddresses(this.programId, vault, mint).bundleTempData)!)
    if (!temp.isNettingDone) {
      const netted = this.send([[netPendingTransactionsIx({ ...this.target(vault), assetMint: mint as Address })]]).landed
      this.stats.nettings += netted
      if (netted === 0) return
    }
    const groups = Array.from(work.pendingDeposits)
      .slice(0, this.options.maxDepositsPerRun)
      .map((position) => [processDepositIx({ ...this.target(vault, this.referrerMeta(vault, this.read(position)!)), assetMint: mint as Address, owner: this.ownerOf(position) })])
    this.stats.deposits += this.send(groups, 4).landed
  }

  private payOut(vault: string, mint: string, work: VaultWork): void {
    const now = this.now
    const treasury = bundleView(this.read(vault)!).treasuryAccount as Address
    const payer = this.options.keeper.address as Address
    const withdrawals = Array.from(work.pendingWithdrawals)
      .filter(([, availableAt]) => availableAt <= now)
      .slice(0, this.options.maxPayoutsPerRun)
      .map(([position]) => {
        const owner = this.ownerOf(position)
        return [
          createAssociatedTokenAccountIdempotentIx({ payer, owner, mint: mint as Address }),
          processWithdrawalIx({ ...this.target(vault, this.referrerMeta(vault, this.read(position)!)), assetMint: mint as Address, owner, treasury })
        ]
      })
    this.stats.withdrawals += this.send(withdrawals, 2).landed
    const switches = Array.from(work.pendingSwitches)
      .filter(([, { availableAt, target }]) => availableAt <= now && this.read(target) !== undefined)
      .slice(0, this.options.maxPayoutsPerRun)
      .map(([position, { target }]) => {
        const owner = this.ownerOf(position)
        const targetTreasury = bundleView(this.read(target)!).treasuryAccount as Address
        return [
          createAssociatedTokenAccountIdempotentIx({ payer, owner, mint: mint as Address }),
          processSwitchIx({ ...this.target(vault, this.referrerMeta(vault, this.read(position)!)), assetMint: mint as Address, owner, treasury, targetBundle: target as Address, targetTreasury })
        ]
      })
    this.stats.switches += this.send(switches, 1).landed
    const claims = Array.from(work.pendingClaims)
      .filter(([, availableAt]) => availableAt <= now)
      .slice(0, this.options.maxPayoutsPerRun)
      .map(([referrerAccount]) => {
        const referrer = work.referrers.get(referrerAccount) as Address
        return [
          createAssociatedTokenAccountIdempotentIx({ payer, owner: referrer, mint: mint as Address }),
          processReferrerWithdrawalIx({ ...this.target(vault), assetMint: mint as Address, referrer })
        ]
      })
    this.stats.claims += this.send(claims, 2).landed
  }

  private chargeFees(vault: string, mint: string, work: VaultWork): void {
    const count = Math.min(this.options.feePositionsPerRun, work.positions.length)
    const groups: Array<ReadonlyArray<BuiltInstruction>> = []
    for (let step = 0; step < count; step++) {
      const position = work.positions[work.feeCursor % work.positions.length]!
      work.feeCursor = (work.feeCursor + 1) % work.positions.length
      const data = this.read(position)
      if (data === undefined || userBundleView(data).shares === 0n) continue
      const remaining = this.referrerMeta(vault, data)
      groups.push([
        applyFeesToPositionIx({
          program: this.programId,
          bundle: vault as Address,
          assetMint: mint as Address,
          keeper: this.options.keeper.address as Address,
          owner: userBundleView(data).owner as Address,
          position: position as Address,
          ...(remaining === undefined ? {} : { remainingAccounts: remaining })
        })
      ])
    }
    this.stats.feeCharges += this.send(groups, this.options.feesPerTransaction).landed
  }
}

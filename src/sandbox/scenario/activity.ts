import type { Address } from "@solana/kit"
import { findAssociatedTokenAddress } from "../../ntbundle/pdas.ts"
import { decodeTokenAccount } from "../programs/tokenLayout.ts"
import type { SandboxChain } from "../chain.ts"
import type { Random } from "../crypto/random.ts"
import type { SendOutcome } from "../runtime/processor.ts"
import type { ScenarioActions, VaultState } from "./actions.ts"
import type { People, Person } from "./people.ts"

/**
 * Ongoing user activity: each action picks a wallet and one of its vaults and does what such a
 * wallet plausibly does next: a first deposit (attributed to a builder registered on the vault
 * about half the time), a top-up, a partial or full withdrawal, or, for builders, a claim of
 * their accrued referral shares. Everything goes through the public builders and sendTransaction.
 */
export interface ActivityStats {
  attempts: number
  landed: number
  refused: number
  firstDeposits: number
  attributedDeposits: number
  topUps: number
  withdrawals: number
  claims: number
}

const bps = (amount: bigint, low: number, high: number, random: Random): bigint => (amount * BigInt(random.int(low, high))) / 10_000n

export class Activity {
  readonly stats: ActivityStats = { attempts: 0, landed: 0, refused: 0, firstDeposits: 0, attributedDeposits: 0, topUps: 0, withdrawals: 0, claims: 0 }

  constructor(
    private readonly chain: SandboxChain,
    private readonly actions: ScenarioActions,
    private readonly people: People,
    private readonly random: Random,
    /** Builders registered per vault (filled as registrations land). */
    private readonly buildersByVault: ReadonlyMap<string, ReadonlyArray<Person>>
  ) {}

  /** Performs `count` actions now. */
  act(count: number): void {
    for (let index = 0; index < count; index++) {
      const builderTurn = this.people.builders.length > 0 && this.random.chance(0.1)
      if (builderTurn) this.builderAction(this.random.pick(this.people.builders))
      else if (this.people.users.length > 0) this.userAction(this.random.pick(this.people.users))
    }
  }

  /** `rate` actions per second over `seconds`: the integer part, plus one more with the fractional probability. */
  actFor(rate: number, seconds: number): void {
    const expected = rate * seconds
    this.act(Math.floor(expected) + (this.random.chance(expected - Math.floor(expected)) ? 1 : 0))
  }

  private balance(owner: string, mint: string): bigint {
    const account = this.chain.ledger.getAccount(findAssociatedTokenAddress(owner as Address, mint as Address)[0])
    return account === undefined ? 0n : (decodeTokenAccount(account.data)?.amount ?? 0n)
  }

  private record(outcome: SendOutcome | undefined, counter: keyof Omit<ActivityStats, "attempts" | "landed" | "refused">): void {
    if (outcome === undefined) return
    this.stats.attempts++
    if (outcome.kind === "landed" && outcome.result.err === null) {
      this.stats.landed++
      this.stats[counter]++
    } else this.stats.refused++
  }

  /** A first deposit of `user` on `vault`, attributed to a registered builder about half the time. */
  firstDeposit(user: Person, vault: VaultState, amount: bigint): void {
    const builders = this.buildersByVault.get(vault.ref.bundleAddress) ?? []
    if (vault.bundle.referrerEnabled && builders.length > 0 && this.random.chance(0.5)) {
      this.record(this.actions.attributedDeposit(user.keypair, vault, amount, this.random.pick(builders).keypair.address), "attributedDeposits")
    } else this.record(this.actions.deposit(user.keypair, vault, amount), "firstDeposits")
  }

  private userAction(user: Person): void {
    const planned = this.random.pick(user.vaults)
    const vault = this.actions.vault(planned.config.address)
    if (vault === null) return
    const balance = this.balance(user.keypair.address, vault.bundle.assetAddress)
    const minimum = vault.bundle.minDepositAmount
    const depositSize = (low: number, high: number): bigint | undefined => {
      const amount = bps(balance, low, high, this.random)
      const sized = amount < minimum ? minimum : amount
      return sized <= balance && sized > 0n ? sized : undefined
    }
    const position = this.actions.position(user.keypair.address, vault.ref.bundleAddress)
    if (position === null || (position.shares === 0n && position.pendingDeposit === 0n && position.pendingShares === 0n)) {
      const amount = depositSize(500, 4_000)
      if (amount !== undefined && (position === null || position.lastDepositTimestamp === 0n)) this.firstDeposit(user, vault, amount)
      else if (amount !== undefined) this.record(this.actions.deposit(user.keypair, vault, amount), "topUps")
      return
    }
    if (position.pendingShares > 0n) return
    const choice = this.random.nextFloat()
    if (position.pendingDeposit > 0n || choice < 0.45) {
      const amount = depositSize(200, 2_000)
      if (amount !== undefined && vault.temp?.isNettingDone !== true) this.record(this.actions.deposit(user.keypair, vault, amount), "topUps")
      return
    }
    const unlocked = vault.bundle.withdrawalDelay === 0n || BigInt(this.chain.ledger.clock.blockTime()) >= position.lastDepositTimestamp + vault.bundle.withdrawalDelay
    if (!unlocked) return
    if (choice < 0.85) {
      const value = vault.oracle === null || vault.bundle.totalShares === 0n ? 0n : (position.shares * (vault.bundle.bundleUnderlyingBalance + vault.oracle.averageExternalEquity)) / vault.bundle.totalShares
      const amount = bps(value, 1_000, 6_000, this.random)
      if (amount > 0n) this.record(this.actions.withdraw(user.keypair, vault, { amount }), "withdrawals")
      return
    }
    this.record(this.actions.withdraw(user.keypair, vault, { withdrawAll: true }), "withdrawals")
  }

  private builderAction(builder: Person): void {
    const planned = this.random.pick(builder.vaults)
    const referrer = this.actions.referrer(builder.keypair.address, planned.config.address)
    if (referrer === null || referrer.pendingWithdrawShares > 0n || referrer.accruedMfeeShares + referrer.accruedPfeeShares === 0n) return
    const vault = this.actions.vault(planned.config.address)
    if (vault !== null) this.record(this.actions.claim(builder.keypair, vault), "claims")
  }
}

import { createHash } from "node:crypto"
import { encodeBase58 } from "../../ntbundle/base58.ts"

/**
 * Slots, block heights, block times and blockhashes.
 *
 * Approximations of real Solana, on purpose:
 * - Every slot has a block (no skipped slots). The chain starts at `firstSlot` (default 1000)
 *   with block height 0, so slot and block height always differ, as on mainnet, and code that
 *   mixes them up fails in tests.
 * - Block time is a piecewise-linear function of the slot: each advance says how many
 *   milliseconds each of its slots lasts (the slot time by default; more when fast-forwarding a
 *   genesis placed in the past). A segment is stored only when the pace changes.
 * - A blockhash is sha256(genesis hash, slot), base58: deterministic for a run, distinct across
 *   runs, because the genesis hash is.
 * - Finalized trails the tip by `finalityLagSlots`; processed and confirmed are the tip.
 */
export interface ClockSegment {
  readonly fromSlot: number
  readonly fromUnixMs: number
  readonly msPerSlot: number
}

/** How many blocks a blockhash stays usable: lastValidBlockHeight = its block height + 150. */
export const MAX_PROCESSING_AGE = 150
const RECENT_BLOCKHASH_WINDOW = 512

export interface ChainClockOptions {
  readonly genesisHash: Uint8Array
  readonly firstSlot: number
  readonly genesisUnixMs: number
  readonly slotMs: number
  readonly finalityLagSlots: number
}

export class ChainClock {
  readonly firstSlot: number
  readonly slotMs: number
  readonly finalityLagSlots: number
  private readonly genesisHash: Uint8Array
  private currentSlot: number
  private readonly segments: ClockSegment[]
  private readonly recentBlockhashes = new Map<string, number>()
  private readonly blockhashBySlot = new Map<number, string>()

  constructor(options: ChainClockOptions) {
    this.genesisHash = options.genesisHash
    this.firstSlot = options.firstSlot
    this.slotMs = options.slotMs
    this.finalityLagSlots = options.finalityLagSlots
    this.currentSlot = options.firstSlot
    this.segments = [{ fromSlot: options.firstSlot, fromUnixMs: options.genesisUnixMs, msPerSlot: options.slotMs }]
    this.remember(options.firstSlot)
  }

  get slot(): number {
    return this.currentSlot
  }

  get finalizedSlot(): number {
    return Math.max(this.firstSlot, this.currentSlot - this.finalityLagSlots)
  }

  slotFor(commitment: Commitment): number {
    return commitment === "finalized" ? this.finalizedSlot : this.currentSlot
  }

  blockHeight(slot: number = this.currentSlot): number {
    return slot - this.firstSlot
  }

  /** Unix time in milliseconds at the start of `slot` (any slot from the first to the tip). */
  unixMs(slot: number = this.currentSlot): number {
    let low = 0
    let high = this.segments.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (this.segments[middle]!.fromSlot <= slot) low = middle
      else high = middle - 1
    }
    const segment = this.segments[low]!
    return segment.fromUnixMs + (slot - segment.fromSlot) * segment.msPerSlot
  }

  /** Block time as RPC reports it: unix seconds. */
  blockTime(slot: number = this.currentSlot): number {
    return Math.floor(this.unixMs(slot) / 1000)
  }

  hasBlock(slot: number): boolean {
    return Number.isInteger(slot) && slot >= this.firstSlot && slot <= this.currentSlot
  }

  /** Moves the tip forward by `slots`, each lasting `msPerSlot`; returns the new tip. */
  advance(slots: number, msPerSlot: number = this.slotMs): number {
    if (!Number.isInteger(slots) || slots < 0) throw new RangeError("slots must be a non-negative integer")
    if (slots === 0) return this.currentSlot
    const last = this.segments[this.segments.length - 1]!
    if (last.msPerSlot !== msPerSlot) {
      this.segments.push({ fromSlot: this.currentSlot, fromUnixMs: this.unixMs(this.currentSlot), msPerSlot })
    }
    for (let step = 0; step < slots; step++) {
      this.currentSlot++
      this.remember(this.currentSlot)
    }
    return this.currentSlot
  }

  blockhash(slot: number = this.currentSlot): string {
    return this.blockhashBySlot.get(slot) ?? this.deriveBlockhash(slot)
  }

  /** The slot whose blockhash this is, if it is among the recent ones the clock remembers. */
  slotOfBlockhash(blockhash: string): number | undefined {
    return this.recentBlockhashes.get(blockhash)
  }

  lastValidBlockHeight(slot: number): number {
    return this.blockHeight(slot) + MAX_PROCESSING_AGE
  }

  /** Whether a transaction with this blockhash may still land at the tip. */
  isBlockhashValid(blockhash: string): boolean {
    const slot = this.slotOfBlockhash(blockhash)
    return slot !== undefined && this.blockHeight() <= this.lastValidBlockHeight(slot)
  }

  private deriveBlockhash(slot: number): string {
    const slotBytes = Buffer.alloc(8)
    slotBytes.writeBigUInt64LE(BigInt(slot))
    return encodeBase58(createHash("sha256").update(this.genesisHash).update(slotBytes).digest())
  }

  private remember(slot: number): void {
    const blockhash = this.deriveBlockhash(slot)
    this.blockhashBySlot.set(slot, blockhash)
    this.recentBlockhashes.set(blockhash, slot)
    const expired = slot - RECENT_BLOCKHASH_WINDOW
    const expiredHash = this.blockhashBySlot.get(expired)
    if (expiredHash !== undefined) {
      this.blockhashBySlot.delete(expired)
      this.recentBlockhashes.delete(expiredHash)
    }
  }
}

export type Commitment = "processed" | "confirmed" | "finalized"

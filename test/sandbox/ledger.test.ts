import { describe, expect, it } from "@effect/vitest"
import { AccountStore } from "../../src/sandbox/ledger/accountStore.ts"
import { ChainClock } from "../../src/sandbox/ledger/chainClock.ts"
import { TransactionStore, type NewTransactionRecord } from "../../src/sandbox/ledger/transactionStore.ts"
import { SandboxChain } from "../../src/sandbox/chain.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"

const clock = (genesisUnixMs = 1_700_000_000_000) =>
  new ChainClock({ genesisHash: new Uint8Array(32).fill(1), firstSlot: 1000, genesisUnixMs, slotMs: 400, finalityLagSlots: 32 })

describe("chain clock", () => {
  it("keeps slot and block height apart and derives block times from the slot pace", () => {
    const subject = clock()
    expect(subject.slot).toBe(1000)
    expect(subject.blockHeight()).toBe(0)
    subject.advance(10)
    expect(subject.unixMs()).toBe(1_700_000_000_000 + 4_000)
    // Fast-forward: each of these slots lasts an hour.
    subject.advance(24, 3_600_000)
    expect(subject.unixMs()).toBe(1_700_000_000_000 + 4_000 + 24 * 3_600_000)
    subject.advance(5)
    expect(subject.unixMs()).toBe(1_700_000_000_000 + 4_000 + 24 * 3_600_000 + 2_000)
    // Earlier slots keep their times.
    expect(subject.unixMs(1005)).toBe(1_700_000_000_000 + 2_000)
    expect(subject.blockTime(1010 + 12)).toBe(Math.floor((1_700_000_000_000 + 4_000 + 12 * 3_600_000) / 1000))
    expect(subject.slot).toBe(1039)
    expect(subject.blockHeight()).toBe(39)
  })

  it("accepts a blockhash for 150 blocks and derives it from genesis and slot", () => {
    const subject = clock()
    const first = subject.blockhash()
    expect(clock().blockhash()).toBe(first)
    const otherGenesis = new ChainClock({ genesisHash: new Uint8Array(32).fill(2), firstSlot: 1000, genesisUnixMs: 0, slotMs: 400, finalityLagSlots: 32 })
    expect(otherGenesis.blockhash()).not.toBe(first)
    expect(subject.lastValidBlockHeight(1000)).toBe(150)
    subject.advance(150)
    expect(subject.isBlockhashValid(first)).toBe(true)
    subject.advance(1)
    expect(subject.isBlockhashValid(first)).toBe(false)
    expect(subject.isBlockhashValid(subject.blockhash())).toBe(true)
  })

  it("finalizes slots a fixed lag behind the tip", () => {
    const subject = clock()
    subject.advance(100)
    expect(subject.finalizedSlot).toBe(1068)
    expect(subject.slotFor("confirmed")).toBe(1100)
    expect(subject.slotFor("finalized")).toBe(1068)
  })

  it("supports a genesis in the past, fast-forwarded to now", () => {
    const now = Date.now()
    const chain = new SandboxChain({ seed: 1, programId: DEFAULT_NTBUNDLE_PROGRAM_ID, slotMs: 400, genesisUnixMs: now - 3 * 86_400_000, runId: "ff" })
    const start = chain.ledger.clock.unixMs()
    const slotsToNow = Math.floor((now - start) / 60_000)
    chain.step(slotsToNow, 60_000)
    expect(Math.abs(chain.ledger.clock.unixMs() - now)).toBeLessThan(60_000)
    expect(chain.ledger.clock.blockTime(chain.ledger.clock.firstSlot)).toBe(Math.floor((now - 3 * 86_400_000) / 1000))
  })
})

describe("account store", () => {
  it("indexes accounts by owner, follows owner changes, and forgets zero-lamport accounts", () => {
    const store = new AccountStore()
    const record = (owner: string, lamports: bigint) => ({ owner, lamports, data: new Uint8Array(1), executable: false, slot: 1 })
    store.put("a", record("p1", 10n))
    store.put("b", record("p1", 10n))
    store.put("c", record("p2", 10n))
    expect([...store.ownedBy("p1").keys()]).toEqual(["a", "b"])
    store.put("a", record("p2", 10n))
    expect([...store.ownedBy("p1").keys()]).toEqual(["b"])
    expect([...store.ownedBy("p2").keys()].sort()).toEqual(["a", "c"])
    store.put("b", record("p1", 0n))
    expect(store.get("b")).toBeUndefined()
    expect(store.ownedBy("p1").size).toBe(0)
    expect(store.size).toBe(2)
  })
})

describe("transaction store", () => {
  const input = (signature: string, slot: number, accountKeys: ReadonlyArray<string>): NewTransactionRecord => ({
    signature,
    slot,
    blockTime: slot,
    wireBytes: new Uint8Array(0),
    version: "legacy",
    accountKeys,
    err: null,
    logs: [],
    fee: 5000n,
    computeUnitsConsumed: 0,
    preBalances: [],
    postBalances: [],
    preTokenBalances: [],
    postTokenBalances: [],
    memo: null,
    computeUnitPrice: 0n
  })

  it("lists an address's transactions newest first and forgets the oldest beyond retention", () => {
    const store = new TransactionStore(3)
    store.add(input("s1", 1, ["x", "y"]))
    store.add(input("s2", 2, ["x"]))
    store.add(input("s3", 3, ["y"]))
    store.add(input("s4", 4, ["x"]))
    store.add(input("s5", 5, ["x", "x"]))
    expect(store.get("s1")).toBeUndefined()
    expect(store.get("s2")).toBeUndefined()
    expect(store.forAddress("x", { limit: 10, maxSlot: 99 }).map((record) => record.signature)).toEqual(["s5", "s4"])
    expect(store.forAddress("y", { limit: 10, maxSlot: 99 }).map((record) => record.signature)).toEqual(["s3"])
    expect(store.forAddress("x", { limit: 10, maxSlot: 4 }).map((record) => record.signature)).toEqual(["s4"])
    expect(store.forAddress("x", { limit: 10, maxSlot: 99, before: "s5" }).map((record) => record.signature)).toEqual(["s4"])
  })
})

import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { installScenario } from "../../../src/sandbox/scenario/scenario.ts"
import { decodeMessage, decodeMessageWithKit, decodeTransaction, decodeTransactionWithKit } from "../../../src/sandbox/runtime/message.ts"
import { readWireTransaction } from "../../../src/sandbox/runtime/wireDecode.ts"
import { compileLegacyMessage } from "../../../src/sandbox/runtime/compile.ts"
import type { TransactionRecord } from "../../../src/sandbox/ledger/transactionStore.ts"
import { getCompiledTransactionMessageEncoder, getTransactionEncoder, type Address } from "@solana/kit"

/** Every transaction a small scenario lands (legacy, from the keeper, the users and the setup). */
const landedTransactions = (): Array<TransactionRecord> => {
  const chain = createSandboxChain({ seed: 3, runId: "wire-decode" })
  const scenario = installScenario(chain, { users: 6, builders: 2, activity: 4, vaultIds: [60, 76] })
  chain.step(40)
  scenario.stop()
  const out: Array<TransactionRecord> = []
  const seen = new Set<string>()
  // every transaction is found through its fee payer: the keeper or a scenario wallet
  for (const payer of [scenario.keeper.address, ...[...scenario.people.users, ...scenario.people.builders].map((person) => person.keypair.address)]) {
    for (const record of chain.ledger.transactions.forAddress(payer, { limit: 5_000, maxSlot: Number.MAX_SAFE_INTEGER })) {
      if (!seen.has(record.signature)) {
        seen.add(record.signature)
        out.push(record)
      }
    }
  }
  return out
}

const v0Transaction = (lookups: boolean): Uint8Array => {
  const addresses = ["11111111111111111111111111111111", "SysvarRent111111111111111111111111111111111", "Vote111111111111111111111111111111111111111"] as Array<Address>
  const message = getCompiledTransactionMessageEncoder().encode({
    version: 0,
    header: { numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 1 },
    staticAccounts: [addresses[1]!, addresses[2]!],
    lifetimeToken: "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY",
    instructions: [{ programAddressIndex: 1, accountIndices: [0], data: new Uint8Array(300).fill(7) }, { programAddressIndex: 1 }],
    addressTableLookups: lookups ? [{ lookupTableAddress: addresses[0]!, writableIndexes: [1, 2], readonlyIndexes: [3] }] : []
  } as never)
  const signatures = { [addresses[1]!]: new Uint8Array(64).fill(9) }
  return new Uint8Array(getTransactionEncoder().encode({ messageBytes: message, signatures } as never))
}

describe("direct wire decoding", () => {
  const records = landedTransactions()
  const landed = records.map((record) => record.wireBytes)

  it("reads every landed scenario transaction exactly as kit's decoders do", () => {
    expect(landed.length).toBeGreaterThan(50)
    for (const wire of landed) {
      expect(readWireTransaction(wire)).toBeDefined()
      expect(decodeTransaction(wire)).toEqual(decodeTransactionWithKit(wire))
    }
  })

  it("the sandbox's own senders record what decoding their wire bytes gives (they skip the decoding)", () => {
    for (const record of records) {
      const decoded = decodeTransaction(record.wireBytes)
      if ("kind" in decoded) throw new Error(`landed transaction does not decode: ${JSON.stringify(decoded)}`)
      expect([record.signature, record.version, record.accountKeys]).toEqual([decoded.signature, decoded.version, decoded.accountKeys])
    }
  })

  it("compileLegacyMessage's compiled form equals the decoded message bytes", () => {
    const [payer, other, program] = ["11111111111111111111111111111111", "SysvarRent111111111111111111111111111111111", "Vote111111111111111111111111111111111111111"]
    const instructions = [
      { programId: program!, accounts: [{ address: other!, isSigner: false, isWritable: true }, { address: payer!, isSigner: true, isWritable: true }], data: Uint8Array.of(1, 2, 3) },
      { programId: other!, accounts: [], data: new Uint8Array(200).fill(5) }
    ]
    const compiled = compileLegacyMessage(payer!, instructions, "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY")
    expect(decodeMessage(compiled.messageBytes)).toEqual({
      version: "legacy",
      header: compiled.header,
      accountKeys: compiled.staticAccounts,
      recentBlockhash: compiled.recentBlockhash,
      instructions: compiled.instructions,
      usesLookupTables: false
    })
  })

  it("v0 messages, with and without lookup tables, and 2-byte lengths, decode like kit's", () => {
    for (const wire of [v0Transaction(false), v0Transaction(true)]) {
      expect(readWireTransaction(wire)).toBeDefined()
      expect(decodeTransaction(wire)).toEqual(decodeTransactionWithKit(wire))
      const message = wire.subarray(1 + 64)
      expect(decodeMessage(message)).toEqual(decodeMessageWithKit(message))
    }
    expect(decodeTransaction(v0Transaction(true))).toMatchObject({ usesLookupTables: true })
  })

  it("corrupted, truncated and extended bytes get kit's verdict (decoded the same, or refused)", () => {
    const samples = [...landed.slice(0, 20), v0Transaction(false), v0Transaction(true)]
    FastCheck.assert(
      FastCheck.property(
        FastCheck.nat(samples.length - 1),
        FastCheck.array(FastCheck.tuple(FastCheck.nat(2_000), FastCheck.nat(255)), { minLength: 1, maxLength: 3 }),
        FastCheck.integer({ min: -40, max: 3 }),
        (sample, edits, resize) => {
          const source = samples[sample]!
          const bytes = new Uint8Array(Math.max(0, source.length + resize))
          bytes.set(source.subarray(0, bytes.length))
          for (const [at, value] of edits) if (bytes.length > 0) bytes[at % bytes.length] = value
          const ours = decodeTransaction(bytes)
          const kits = decodeTransactionWithKit(bytes)
          if ("kind" in kits) {
            expect("kind" in ours ? ours.kind : "decoded").toBe(kits.kind)
            if (kits.kind === "sanitize" && "kind" in ours && ours.kind === "sanitize") expect(ours.error).toBe(kits.error)
          } else expect(ours).toEqual(kits)
        }
      ),
      { numRuns: 1_000 }
    )
  })
})

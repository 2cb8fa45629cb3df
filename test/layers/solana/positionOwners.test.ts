import { describe, expect, it } from "@effect/vitest"
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  getAddressDecoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash
} from "@solana/kit"
import { programEventsFromAnswer } from "../../../layers/solana/programTransaction.ts"
import { readMessageInstructions } from "../../../layers/solana/wireMessage.ts"
import { eventLogLine, type NtEvent } from "../../../src/ntbundle/events.ts"
import { encodeInstructionData } from "../../../src/ntbundle/instructions.ts"
import { instruction, writableSigner } from "../../../src/ntbundle/ix/meta.ts"
import { netPendingTransactionsIx, processDepositIx, processWithdrawalIx } from "../../../src/ntbundle/ix/keeper.ts"

const keyOf = (n: number): Address => {
  const key = new Uint8Array(32).fill(n)
  key[0] = 200
  return getAddressDecoder().decode(key)
}

const PROGRAM = keyOf(1)
const KEEPER = keyOf(2)
const BUNDLE = keyOf(3)
const MINT = keyOf(4)
const OWNER_A = keyOf(5)
const OWNER_B = keyOf(6)
const OWNER_C = keyOf(7)
const OTHER_PROGRAM = keyOf(8)
const TOKEN_ACCOUNT = keyOf(9)
const TABLE = keyOf(10)

const target = { program: PROGRAM, bundle: BUNDLE, keeper: KEEPER, assetMint: MINT }

const allocated = (amount: bigint): NtEvent => ({
  name: "Allocated",
  data: {
    from: TOKEN_ACCOUNT, to: TOKEN_ACCOUNT, amount, timestamp: 1n, bundleAccountKey: BUNDLE, netAmount: amount - 1n,
    sharePrice: 1n, userSharesBefore: 0n, userSharesAfter: amount, totalShares: amount, referredNetDepositsAfter: null
  }
})

const invoked = (program: Address, depth: number, body: ReadonlyArray<string>) => [
  `Program ${program} invoke [${depth}]`,
  ...body,
  `Program ${program} success`
]

/**
 * A keeper transaction: process_deposit for A, an instruction of another program that calls the
 * ntbundle program (which logs data), process_deposit for B, net_pending_transactions (logs data),
 * process_withdrawal for C. Each top-level instruction logs one `invoke [1]`.
 */
const instructions = [
  processDepositIx({ ...target, owner: OWNER_A }),
  instruction(OTHER_PROGRAM, [writableSigner(KEEPER)], new Uint8Array([7])),
  processDepositIx({ ...target, owner: OWNER_B }),
  netPendingTransactionsIx(target),
  processWithdrawalIx({ ...target, owner: OWNER_C, treasury: TOKEN_ACCOUNT })
]
const logs = [
  ...invoked(PROGRAM, 1, ["Program log: Instruction: ProcessDeposit", eventLogLine(allocated(100n))]),
  ...invoked(OTHER_PROGRAM, 1, invoked(PROGRAM, 2, [eventLogLine(allocated(200n))])),
  ...invoked(PROGRAM, 1, [eventLogLine(allocated(300n)), ...invoked(OTHER_PROGRAM, 2, []), eventLogLine(allocated(301n))]),
  ...invoked(PROGRAM, 1, [eventLogLine(allocated(400n))]),
  ...invoked(PROGRAM, 1, [eventLogLine(allocated(500n))])
]

const wireOf = (compress: boolean): Uint8Array => {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(KEEPER, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: keyOf(11) as string as Blockhash, lastValidBlockHeight: 1n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
    (m) => (compress ? compressTransactionMessageUsingAddressLookupTables(m, { [TABLE]: [OWNER_B] }) : m)
  )
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)))
}

const answerOf = (wire: Uint8Array, loadedAddresses: { writable: Array<string>; readonly: Array<string> } | null) => ({
  slot: 5,
  blockTime: 6,
  meta: { err: null, logMessages: logs, loadedAddresses },
  transaction: [Buffer.from(wire).toString("base64"), "base64"]
})

const usersOf = (answer: unknown) =>
  programEventsFromAnswer(answer, PROGRAM, "sig")!.events.map((line) => [line.event?.name === "Allocated" ? line.event.data.amount : null, line.user ?? null])

describe("instruction attribution of program data lines", () => {
  it("reads the compiled top-level instructions: program, accounts and data, in message order", () => {
    const read = readMessageInstructions(wireOf(false))!
    expect(read.instructions).toHaveLength(5)
    const keys = read.accountKeys.map((key) => getAddressDecoder().decode(key))
    const second = read.instructions[2]!
    expect(keys[second.programIdIndex]).toBe(PROGRAM)
    expect(second.accountIndexes.map((index) => keys[index])).toEqual(instructions[2]!.accounts.map((meta) => meta.address))
    expect([...second.data]).toEqual([...encodeInstructionData({ name: "process_deposit", args: {} })])
    expect([...read.instructions[1]!.data]).toEqual([7])
    const wire = wireOf(false)
    expect(readMessageInstructions(wire.subarray(0, wire.length - 20))).toBeNull()
  })

  it("each event gets the owner of its own top-level process_* instruction; lines elsewhere get none", () => {
    expect(usersOf(answerOf(wireOf(false), null))).toEqual([
      [100n, OWNER_A],
      [200n, null], // logged by a CPI under another program's top-level instruction
      [300n, OWNER_B],
      [301n, OWNER_B], // after a nested call returned, still the same top-level instruction
      [400n, null], // net_pending_transactions names no owner
      [500n, OWNER_C] // process_withdrawal: account 1
    ])
  })

  it("an owner loaded from a lookup table is read from meta.loadedAddresses (writable, then readonly); unknown without it", () => {
    const wire = wireOf(true)
    const read = readMessageInstructions(wire)!
    expect(read.accountKeys.map((key) => getAddressDecoder().decode(key))).not.toContain(OWNER_B)
    expect(usersOf(answerOf(wire, { writable: [], readonly: [OWNER_B] })).map(([, user]) => user)).toEqual([OWNER_A, null, OWNER_B, OWNER_B, null, OWNER_C])
    expect(usersOf(answerOf(wire, null)).map(([, user]) => user)).toEqual([OWNER_A, null, null, null, null, OWNER_C])
  })

  it("a failed transaction has no events to attribute", () => {
    const answer = { ...answerOf(wireOf(false), null), meta: { err: { InstructionError: [0, "Custom"] }, logMessages: logs } }
    expect(programEventsFromAnswer(answer, PROGRAM, "sig")!.events).toEqual([])
  })
})

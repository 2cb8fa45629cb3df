import { describe, expect, it } from "vitest"
import { deterministicKeypair } from "../../../src/sandbox/crypto/keypair.ts"
import { sendBatched, wireSize } from "../../../src/sandbox/ntbundle/txBatch.ts"
import { compileLegacyMessage } from "../../../src/sandbox/runtime/compile.ts"
import { PACKET_DATA_SIZE } from "../../../src/sandbox/runtime/message.ts"
import type { Instruction } from "../../../src/sandbox/runtime/program.ts"
import type { SendOutcome } from "../../../src/sandbox/runtime/processor.ts"

const feePayer = deterministicKeypair(7, "batch-payer")
const address = (label: string) => deterministicKeypair(7, label).address
const program = address("program")
const shared = address("shared")

/** A group of one instruction: the shared account, `fresh` new accounts, `dataBytes` of data. */
const group = (index: number, fresh: number, dataBytes: number): ReadonlyArray<Instruction> => [
  {
    programId: program,
    accounts: [
      { address: shared, isSigner: false, isWritable: true },
      ...Array.from({ length: fresh }, (_, k) => ({ address: address(`account-${index}-${k}`), isSigner: false, isWritable: k === 0 }))
    ],
    data: new Uint8Array(dataBytes)
  }
]

/** Sends nothing: records each transaction's instructions and reports it landed. */
const recorder = () => {
  const sent: Array<ReadonlyArray<Instruction>> = []
  const submit = (request: { readonly instructions: ReadonlyArray<Instruction> }) => {
    sent.push(request.instructions)
    return { kind: "landed", result: { err: null } } as unknown as SendOutcome
  }
  return { sent, submit }
}

describe("keeper transaction batches", () => {
  it("wireSize counts the bytes of the compiled, signed transaction", () => {
    const instructions = [...group(0, 3, 40), ...group(1, 2, 9), ...group(2, 0, 200)]
    const message = compileLegacyMessage(feePayer.address, instructions, address("blockhash"))
    expect(wireSize(feePayer.address, instructions)).toBe(1 + 64 + message.messageBytes.length)
  })

  it("fills each transaction up to the packet size, as counting every candidate batch whole would", () => {
    const groups = Array.from({ length: 40 }, (_, index) => group(index, 1 + (index % 4), 30 + ((index * 37) % 90)))
    const { sent, submit } = recorder()
    const result = sendBatched(submit, feePayer, groups, { maxGroupsPerTransaction: 100 })
    expect(result.landed).toBe(40)
    expect(sent.flat()).toEqual(groups.flat())
    expect(sent.length).toBeGreaterThan(1)
    // Reference packing: a group joins the batch when the whole candidate still fits.
    const expected: Array<ReadonlyArray<Instruction>> = []
    let batch: Instruction[] = []
    for (const next of groups) {
      if (batch.length > 0 && wireSize(feePayer.address, [...batch, ...next]) > PACKET_DATA_SIZE) {
        expected.push(batch)
        batch = [...next]
      } else batch.push(...next)
    }
    expected.push(batch)
    expect(sent).toEqual(expected)
    for (const instructions of sent) expect(wireSize(feePayer.address, instructions)).toBeLessThanOrEqual(PACKET_DATA_SIZE)
  })

  it("caps the groups per transaction", () => {
    const groups = Array.from({ length: 7 }, (_, index) => group(index, 1, 8))
    const { sent, submit } = recorder()
    sendBatched(submit, feePayer, groups, { maxGroupsPerTransaction: 3 })
    expect(sent.map((instructions) => instructions.length)).toEqual([3, 3, 1])
  })
})

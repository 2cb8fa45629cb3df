import { describe, expect, it } from "@effect/vitest"
import { SandboxChain } from "../../src/sandbox/chain.ts"
import { writeU32, writeU64 } from "../../src/sandbox/codec/bytes.ts"
import { deterministicKeypair, type Keypair } from "../../src/sandbox/crypto/keypair.ts"
import { findProgramAddress } from "../../src/ntbundle/programAddress.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID, SYSTEM_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"
import { setComputeUnitLimit, setComputeUnitPrice, systemTransfer } from "../../src/sandbox/programs/instructions.ts"
import { customError, fail } from "../../src/sandbox/runtime/errors.ts"
import type { ExecutionResult } from "../../src/sandbox/runtime/executor.ts"
import type { SendOutcome } from "../../src/sandbox/runtime/processor.ts"
import type { Instruction, ProgramHandler } from "../../src/sandbox/runtime/program.ts"
import { COUNTER_PROGRAM_ID, counterInstruction, counterProgram } from "./support.ts"

/** The chain without sockets: programs plugged in through the registry, run through the send path. */
const newChain = (): { chain: SandboxChain; payer: Keypair } => {
  const chain = new SandboxChain({ seed: "runtime", programId: DEFAULT_NTBUNDLE_PROGRAM_ID, slotMs: 400, runId: "runtime-test" })
  chain.registerProgram(counterProgram)
  const payer = deterministicKeypair("runtime", "payer")
  chain.setAccount(payer.address, { owner: SYSTEM_PROGRAM_ID, lamports: 10_000_000_000n, data: new Uint8Array(0), executable: false })
  return { chain, payer }
}

const resultOf = (outcome: SendOutcome): ExecutionResult => {
  if (!("result" in outcome) || outcome.result === undefined) throw new Error(`no execution result: ${outcome.kind}`)
  return outcome.result
}

const PROBE_ID = deterministicKeypair("runtime", "probe-program").address
const VAULT_SEED = new TextEncoder().encode("vault")

/**
 * A program exercising the runtime's rules: 0 = fail with Anchor's first custom code, 1 = write
 * another program's account, 2 = mint lamports from nothing, 3 = throw, 4 = CPI a System
 * transfer from account 0 without its signature, 5 = CPI a System transfer from its vault PDA
 * (account 0) signed with the PDA's seeds, 6 = write a read-only account it owns.
 */
const probeProgram: ProgramHandler = {
  programId: PROBE_ID,
  name: "probe",
  kind: "bpf",
  baseComputeUnits: 500,
  execute: (context) => {
    const [tag] = context.instruction.data
    const first = context.accountAt(0).address
    switch (tag) {
      case 0:
        return fail(customError(0x1770), "AnchorError: ConstraintSeeds")
      case 1:
        context.dataMut(first)[0] = 1
        return
      case 2:
        context.setLamports(first, context.account(first).lamports + 1n)
        return
      case 3:
        throw new Error("index out of bounds")
      case 4:
      case 5: {
        const data = new Uint8Array(12)
        writeU32(data, 0, 2)
        writeU64(data, 4, 1_000_000n)
        const transfer: Instruction = {
          programId: SYSTEM_PROGRAM_ID,
          accounts: [
            { address: first, isSigner: true, isWritable: true },
            { address: context.accountAt(1).address, isSigner: false, isWritable: true }
          ],
          data
        }
        const [, bump] = findProgramAddress([VAULT_SEED], PROBE_ID)
        context.invoke(transfer, tag === 5 ? [[VAULT_SEED, Uint8Array.of(bump)]] : [])
        return
      }
      case 6:
        context.dataMut(first)[0] = 1
        return
    }
  }
}

const probe = (tag: number, accounts: Instruction["accounts"]): Instruction => ({ programId: PROBE_ID, accounts, data: Uint8Array.of(tag) })

describe("program registry and runtime rules", () => {
  it("logs a custom program error as Anchor errors appear, and records it per instruction", () => {
    const { chain, payer } = newChain()
    chain.registerProgram(probeProgram)
    const outcome = chain.submit({ feePayer: payer, instructions: [probe(0, [{ address: payer.address, isSigner: true, isWritable: true }])] })
    expect(outcome.kind).toBe("preflightFailed")
    const result = resultOf(outcome)
    expect(result.err).toEqual({ InstructionError: [0, { Custom: 6000 }] })
    expect(result.logs).toEqual([
      `Program ${PROBE_ID} invoke [1]`,
      "Program log: AnchorError: ConstraintSeeds",
      `Program ${PROBE_ID} consumed 500 of 200000 compute units`,
      `Program ${PROBE_ID} failed: custom program error: 0x1770`
    ])
  })

  it("enforces ownership, lamport balance, writability and signer privileges", () => {
    const { chain, payer } = newChain()
    chain.registerProgram(probeProgram)
    const foreign = deterministicKeypair("runtime", "foreign").address
    chain.setAccount(foreign, { owner: COUNTER_PROGRAM_ID, lamports: 1_000_000_000n, data: new Uint8Array(4), executable: false })
    const owned = deterministicKeypair("runtime", "owned").address
    chain.setAccount(owned, { owner: PROBE_ID, lamports: 1_000_000_000n, data: new Uint8Array(4), executable: false })
    const errorOf = (instruction: Instruction) => resultOf(chain.submit({ feePayer: payer, instructions: [instruction] }))

    expect(errorOf(probe(1, [{ address: foreign, isSigner: false, isWritable: true }])).err).toEqual({ InstructionError: [0, "ExternalAccountDataModified"] })
    expect(errorOf(probe(2, [{ address: owned, isSigner: false, isWritable: true }])).err).toEqual({ InstructionError: [0, "UnbalancedInstruction"] })
    expect(errorOf(probe(6, [{ address: owned, isSigner: false, isWritable: false }])).err).toEqual({ InstructionError: [0, "ReadonlyDataModified"] })
    const panic = errorOf(probe(3, [{ address: owned, isSigner: false, isWritable: false }]))
    expect(panic.err).toEqual({ InstructionError: [0, "ProgramFailedToComplete"] })
    expect(panic.logs).toContain("Program log: panicked at 'index out of bounds'")

    const victim = deterministicKeypair("runtime", "victim")
    chain.setAccount(victim.address, { owner: SYSTEM_PROGRAM_ID, lamports: 5_000_000_000n, data: new Uint8Array(0), executable: false })
    const escalation = errorOf(
      probe(4, [
        { address: victim.address, isSigner: false, isWritable: true },
        { address: payer.address, isSigner: true, isWritable: true },
        { address: SYSTEM_PROGRAM_ID, isSigner: false, isWritable: false }
      ])
    )
    expect(escalation.err).toEqual({ InstructionError: [0, "PrivilegeEscalation"] })
    expect(escalation.logs).toContain(`${victim.address}'s signer privilege escalated`)
    expect(chain.ledger.getAccount(victim.address)?.lamports).toBe(5_000_000_000n)
    expect(chain.ledger.getAccount(foreign)?.data).toEqual(new Uint8Array(4))
  })

  it("lets a program sign a cross-program invocation for its PDA, logging the nested invoke", () => {
    const { chain, payer } = newChain()
    chain.registerProgram(probeProgram)
    const [vault] = findProgramAddress([VAULT_SEED], PROBE_ID)
    chain.setAccount(vault, { owner: SYSTEM_PROGRAM_ID, lamports: 3_000_000_000n, data: new Uint8Array(0), executable: false })
    const receiver = deterministicKeypair("runtime", "receiver").address
    chain.setAccount(receiver, { owner: SYSTEM_PROGRAM_ID, lamports: 1_000_000_000n, data: new Uint8Array(0), executable: false })
    const outcome = chain.submit({
      feePayer: payer,
      instructions: [
        probe(5, [
          { address: vault, isSigner: false, isWritable: true },
          { address: receiver, isSigner: false, isWritable: true },
          { address: SYSTEM_PROGRAM_ID, isSigner: false, isWritable: false }
        ])
      ]
    })
    expect(outcome.kind).toBe("landed")
    expect(resultOf(outcome).logs).toEqual([
      `Program ${PROBE_ID} invoke [1]`,
      `Program ${SYSTEM_PROGRAM_ID} invoke [2]`,
      `Program ${SYSTEM_PROGRAM_ID} success`,
      `Program ${PROBE_ID} consumed 650 of 200000 compute units`,
      `Program ${PROBE_ID} success`
    ])
    expect(chain.ledger.getAccount(receiver)?.lamports).toBe(1_001_000_000n)
  })

  it("executes all instructions or none", () => {
    const { chain, payer } = newChain()
    const counter = deterministicKeypair("runtime", "counter").address
    chain.setAccount(counter, { owner: COUNTER_PROGRAM_ID, lamports: 1_000_000_000n, data: new Uint8Array(16), executable: false })
    const outcome = chain.submit({ feePayer: payer, instructions: [counterInstruction(counter, 4), counterInstruction(counter, 1, 2)], skipPreflight: true })
    expect(outcome.kind).toBe("landed")
    expect(resultOf(outcome).err).toEqual({ InstructionError: [1, "InvalidArgument"] })
    expect(chain.ledger.getAccount(counter)?.data).toEqual(new Uint8Array(16))
    expect(chain.ledger.getAccount(payer.address)?.lamports).toBe(10_000_000_000n - 5_000n)
  })

  it("meters compute, charges priority fees, and refuses rent-paying results and duplicates", () => {
    const { chain, payer } = newChain()
    const counter = deterministicKeypair("runtime", "metered").address
    chain.setAccount(counter, { owner: COUNTER_PROGRAM_ID, lamports: 1_000_000_000n, data: new Uint8Array(16), executable: false })
    const starved = resultOf(chain.submit({ feePayer: payer, instructions: [setComputeUnitLimit(900), counterInstruction(counter, 1)] }))
    expect(starved.err).toEqual({ InstructionError: [1, "ComputationalBudgetExceeded"] })

    const before = chain.ledger.getAccount(payer.address)!.lamports
    const priced = chain.submit({ feePayer: payer, instructions: [setComputeUnitLimit(10_000), setComputeUnitPrice(2_500_000n), counterInstruction(counter, 1)] })
    expect(resultOf(priced).fee).toBe(5_000n + 25_000n)
    expect(chain.ledger.getAccount(payer.address)!.lamports).toBe(before - 30_000n)
    expect(resultOf(priced).unitsConsumed).toBe(150 + 150 + 1_000)

    const dust = resultOf(chain.submit({ feePayer: payer, instructions: [systemTransfer(payer.address, deterministicKeypair("runtime", "dust").address, 1_000n)] }))
    expect(dust.err).toEqual({ InsufficientFundsForRent: { account_index: 1 } })

    const instructions = [counterInstruction(counter, 2)]
    expect(chain.submit({ feePayer: payer, instructions }).kind).toBe("landed")
    const again = chain.submit({ feePayer: payer, instructions })
    expect(again.kind).toBe("preflightFailed")
    expect(resultOf(again).err).toBe("AlreadyProcessed")
    chain.step(1)
    expect(chain.submit({ feePayer: payer, instructions }).kind).toBe("landed")
  })
})

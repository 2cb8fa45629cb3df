import { writeU32, writeU64 } from "../codec/bytes.ts"
import { addressToBytes } from "../crypto/keypair.ts"
import { findProgramAddress } from "../../ntbundle/programAddress.ts"
import { customError, fail } from "../runtime/errors.ts"
import type { InvocationContext, ProgramHandler } from "../runtime/program.ts"
import { ASSOCIATED_TOKEN_PROGRAM_ID, minimumBalanceForRentExemption, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./ids.ts"
import { tokenInitializeAccount3 } from "./instructions.ts"
import { decodeTokenAccount, TOKEN_ACCOUNT_SIZE } from "./tokenLayout.ts"

/**
 * Associated Token Account program: Create and CreateIdempotent, creating the account through
 * the same cross-program invocations as the real program (System create/transfer+allocate+assign
 * signed by the PDA, Token InitializeImmutableOwner and InitializeAccount3), so the logs match.
 * RecoverNested is not modelled.
 */
const INVALID_OWNER = customError(0)

const systemInstruction = (tag: number, accounts: ReadonlyArray<readonly [string, boolean, boolean]>, fill: (data: Uint8Array) => void, size: number) => {
  const data = new Uint8Array(size)
  writeU32(data, 0, tag)
  fill(data)
  return {
    programId: SYSTEM_PROGRAM_ID,
    accounts: accounts.map(([address, isSigner, isWritable]) => ({ address, isSigner, isWritable })),
    data
  }
}

const createAccountAt = (context: InvocationContext, payer: string, address: string, seeds: ReadonlyArray<Uint8Array>): void => {
  const rent = minimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE)
  const current = context.account(address).lamports
  const tokenProgramBytes = addressToBytes(TOKEN_PROGRAM_ID)
  if (current === 0n) {
    const create = systemInstruction(0, [[payer, true, true], [address, true, true]], (data) => {
      writeU64(data, 4, rent)
      writeU64(data, 12, BigInt(TOKEN_ACCOUNT_SIZE))
      data.set(tokenProgramBytes, 20)
    }, 52)
    context.invoke(create, [seeds])
    return
  }
  // Someone pre-funded the address: top it up, then allocate and assign it, as the real program does.
  if (current < rent) {
    const topUp = systemInstruction(2, [[payer, true, true], [address, false, true]], (data) => writeU64(data, 4, rent - current), 12)
    context.invoke(topUp)
  }
  context.invoke(systemInstruction(8, [[address, true, true]], (data) => writeU64(data, 4, BigInt(TOKEN_ACCOUNT_SIZE)), 12), [seeds])
  context.invoke(systemInstruction(1, [[address, true, true]], (data) => data.set(tokenProgramBytes, 4), 36), [seeds])
}

interface Derivation {
  readonly seeds: ReadonlyArray<Uint8Array>
  readonly expected: string
  readonly bump: number
}

/** Derivations by wallet and mint: a PDA search costs a curve check per bump tried, and the keeper pays the same owners again and again. */
const derivations = new Map<string, Derivation>()
const DERIVATION_CACHE_LIMIT = 50_000

const derivation = (wallet: string, mint: string): Derivation => {
  const key = `${wallet}/${mint}`
  let known = derivations.get(key)
  if (known === undefined) {
    const seeds = [addressToBytes(wallet), addressToBytes(TOKEN_PROGRAM_ID), addressToBytes(mint)]
    const [expected, bump] = findProgramAddress(seeds, ASSOCIATED_TOKEN_PROGRAM_ID)
    known = { seeds, expected, bump }
    if (derivations.size >= DERIVATION_CACHE_LIMIT) derivations.clear()
    derivations.set(key, known)
  }
  return known
}

const execute = (context: InvocationContext): void => {
  const data = context.instruction.data
  const mode = data.length === 0 ? 0 : data[0]
  if (mode !== 0 && mode !== 1) fail("InvalidInstructionData")
  context.log(mode === 1 ? "CreateIdempotent" : "Create")
  const payer = context.accountAt(0).address
  const address = context.accountAt(1).address
  const wallet = context.accountAt(2).address
  const mint = context.accountAt(3).address
  const tokenProgramId = context.accountAt(5).address
  if (tokenProgramId !== TOKEN_PROGRAM_ID) fail("IncorrectProgramId")
  const { seeds, expected, bump } = derivation(wallet, mint)
  if (expected !== address) fail("InvalidSeeds", "Error: Associated address does not match seed derivation")

  const existing = context.account(address)
  if (mode === 1 && existing.owner === TOKEN_PROGRAM_ID) {
    const account = decodeTokenAccount(existing.data)
    if (account === undefined) fail("InvalidAccountData")
    if (account!.owner !== wallet) fail(INVALID_OWNER, "Error: Owner does not match")
    return
  }
  if (context.account(mint).owner !== TOKEN_PROGRAM_ID) fail("IllegalOwner")

  context.invoke({ programId: TOKEN_PROGRAM_ID, accounts: [{ address: mint, isSigner: false, isWritable: false }], data: Uint8Array.of(21) })
  createAccountAt(context, payer, address, [...seeds, Uint8Array.of(bump)])
  context.log("Initialize the associated token account")
  context.invoke({ programId: TOKEN_PROGRAM_ID, accounts: [{ address, isSigner: false, isWritable: true }], data: Uint8Array.of(22) })
  context.invoke(tokenInitializeAccount3(address, mint, wallet))
}

export const associatedTokenProgram: ProgramHandler = {
  programId: ASSOCIATED_TOKEN_PROGRAM_ID,
  name: "associated-token",
  kind: "bpf",
  baseComputeUnits: 9_000,
  execute
}

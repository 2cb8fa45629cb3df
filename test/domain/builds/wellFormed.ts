// What every accepted build must satisfy (issue 8, acceptance): the decoded transaction carries
// exactly `instructions[]`, the user pays and is the only signer, the signature slot is empty,
// there are no lookup tables and only the allowed programs appear. Recompiling `instructions[]`
// with kit must give the very same bytes.
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash
} from "@solana/kit"
import { Either } from "effect"
import { expect } from "vitest"
import type { BuiltTransaction } from "../../../src/domain/builds/responses.ts"
import type { BuiltInstruction } from "../../../src/ntbundle/ix/meta.ts"
import { ASSOCIATED_TOKEN_PROGRAM_ID, COMPUTE_BUDGET_PROGRAM_ID, MEMO_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { decodeTransactionBase64, type DecodedTransaction } from "../../../src/ntbundle/txDecode.ts"
import { toLegacyWireInstruction, type LegacyWireInstruction } from "../../../src/tx/legacyInstruction.ts"
import { fromLegacy } from "../../../src/bench/support/legacyToKit.ts"

const PUBLIC_NTBUNDLE_INSTRUCTIONS = ["initialize_bundle_depositor", "set_user_referrer", "request_deposit", "request_withdrawal"]

const kitWire = (user: string, build: BuiltTransaction): string =>
  getBase64EncodedWireTransaction(
    compileTransaction(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayer(user as Address, m),
        (m) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: build.blockhash as Blockhash, lastValidBlockHeight: BigInt(build.lastValidBlockHeight) },
            m
          ),
        (m) => appendTransactionMessageInstructions(build.instructions.map(fromLegacy), m)
      )
    )
  )

/** Checks the invariants and returns the decoded transaction for further assertions. */
export const expectWellFormedBuild = (build: BuiltTransaction, user: string, program: string): DecodedTransaction => {
  const decoded = decodeTransactionBase64(build.transactionBase64)
  if (Either.isLeft(decoded)) throw new Error(`transactionBase64 does not decode: ${decoded.left.message}`)
  const tx = decoded.right
  expect(tx.version).toBe(0)
  expect(tx.feePayer).toBe(user)
  expect(tx.header.numSignerAccounts).toBe(1)
  expect(tx.signatures).toEqual([null])
  expect(tx.addressTableLookups).toEqual([])
  expect(tx.blockhash).toBe(build.blockhash)
  expect(build.signers).toEqual([user])
  expect(new Set(tx.staticAccounts).size).toBe(tx.staticAccounts.length)

  // the same instructions, in order; flags in the transaction are each address's merged role
  expect(tx.instructions.length).toBe(build.instructions.length)
  const merged = new Map<string, { isSigner: boolean; isWritable: boolean }>([[user, { isSigner: true, isWritable: true }]])
  for (const ix of build.instructions) {
    for (const a of ix.accounts) {
      const m = merged.get(a.pubkey) ?? { isSigner: false, isWritable: false }
      merged.set(a.pubkey, { isSigner: m.isSigner || a.isSigner, isWritable: m.isWritable || a.isWritable })
    }
  }
  tx.instructions.forEach((decodedIx, i) => {
    const listed = build.instructions[i]!
    expect(decodedIx.programId).toBe(listed.programId)
    expect(decodedIx.dataHex).toBe(Buffer.from(listed.dataBase64, "base64").toString("hex"))
    expect(decodedIx.accounts.map((a) => a.address)).toEqual(listed.accounts.map((a) => a.pubkey))
    for (const account of decodedIx.accounts) {
      const expected = merged.get(account.address!)!
      expect({ isSigner: account.isSigner, isWritable: account.isWritable }).toEqual(expected)
    }
  })

  // only the allowed programs, and only the public ntbundle instructions
  for (const ix of tx.instructions) {
    expect([COMPUTE_BUDGET_PROGRAM_ID, ASSOCIATED_TOKEN_PROGRAM_ID, MEMO_PROGRAM_ID, program]).toContain(ix.programId)
    if (ix.programId === program) expect(PUBLIC_NTBUNDLE_INSTRUCTIONS).toContain(ix.decoded?.name)
  }

  // compute budget first: the limit, then the price when there is one
  expect(tx.instructions[0]?.decoded).toEqual({ name: "SetComputeUnitLimit", args: { units: build.computeUnitLimit } })
  const price = BigInt(build.priorityFeeMicroLamports)
  const budget = tx.instructions.filter((ix) => ix.programId === COMPUTE_BUDGET_PROGRAM_ID)
  expect(budget.length).toBe(price > 0n ? 2 : 1)
  if (price > 0n) expect(tx.instructions[1]?.decoded).toEqual({ name: "SetComputeUnitPrice", args: { microLamports: price } })

  expect(kitWire(user, build)).toBe(build.transactionBase64)
  expect(Buffer.from(build.transactionBase64, "base64").length).toBeLessThanOrEqual(1232)
  return tx
}

/** The build's instructions after the compute budget ones, for comparison with the ntbundle builders. */
export const afterComputeBudget = (build: BuiltTransaction): ReadonlyArray<LegacyWireInstruction> =>
  build.instructions.filter((ix) => ix.programId !== COMPUTE_BUDGET_PROGRAM_ID)

export const legacy = (instructions: ReadonlyArray<BuiltInstruction>): ReadonlyArray<LegacyWireInstruction> =>
  instructions.map(toLegacyWireInstruction)

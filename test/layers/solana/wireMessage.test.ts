import { describe, expect, it } from "@effect/vitest"
import {
  AccountRole,
  type Address,
  appendTransactionMessageInstruction,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  getAddressDecoder,
  getCompiledTransactionMessageDecoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash
} from "@solana/kit"
import { isWritableIndex } from "../../../layers/solana/programTransaction.ts"
import { readMessageKeys } from "../../../layers/solana/wireMessage.ts"
import { encodeBase58 } from "../../../src/ntbundle/base58.ts"

const keyOf = (n: number): Address => {
  const key = new Uint8Array(32).fill(n)
  key[0] = 200 // no leading zero bytes, any 32 bytes make an address
  return getAddressDecoder().decode(key)
}

const FEE_PAYER = keyOf(1)
const SIGNER_WRITABLE = keyOf(2)
const SIGNER_READONLY = keyOf(3)
const WRITABLE = keyOf(4)
const READONLY = keyOf(5)
const PROGRAM = keyOf(6)
const OTHER_WRITABLE = keyOf(7)

/** A wire transaction (zero-filled signatures) as kit compiles and encodes it. */
const wireTransaction = (version: "legacy" | 0, accountCount: number) => {
  const extra = Array.from({ length: accountCount }, (_, i) => ({ address: keyOf(20 + i), role: i % 3 === 0 ? AccountRole.WRITABLE : AccountRole.READONLY }))
  const message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayer(FEE_PAYER, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: keyOf(9) as string as Blockhash, lastValidBlockHeight: 100n }, m),
    (m) =>
      appendTransactionMessageInstruction(
        {
          programAddress: PROGRAM,
          accounts: [
            { address: SIGNER_WRITABLE, role: AccountRole.WRITABLE_SIGNER },
            { address: SIGNER_READONLY, role: AccountRole.READONLY_SIGNER },
            { address: WRITABLE, role: AccountRole.WRITABLE },
            { address: READONLY, role: AccountRole.READONLY },
            { address: OTHER_WRITABLE, role: AccountRole.WRITABLE },
            ...extra
          ],
          data: new Uint8Array([1, 2, 3])
        },
        m
      )
  )
  const transaction = compileTransaction(message)
  const writable = [FEE_PAYER, SIGNER_WRITABLE, WRITABLE, OTHER_WRITABLE, ...extra.filter((a) => a.role === AccountRole.WRITABLE).map((a) => a.address)]
  return { wire: new Uint8Array(getTransactionEncoder().encode(transaction)), messageBytes: transaction.messageBytes, writable }
}

describe("readMessageKeys", () => {
  for (const version of ["legacy", 0] as const) {
    for (const extra of [0, 57]) {
      it(`reads the header and static keys of a ${version} message with ${extra + 7} accounts as kit's decoder does`, () => {
        const { wire, messageBytes, writable } = wireTransaction(version, extra)
        const read = readMessageKeys(wire)!
        const decoded = getCompiledTransactionMessageDecoder().decode(messageBytes)
        expect(read.header).toEqual({
          numRequiredSignatures: decoded.header.numSignerAccounts,
          numReadonlySignedAccounts: decoded.header.numReadonlySignerAccounts,
          numReadonlyUnsignedAccounts: decoded.header.numReadonlyNonSignerAccounts
        })
        expect(read.accountKeys.map(encodeBase58)).toEqual(decoded.staticAccounts)
        const writableRead = read.accountKeys.map(encodeBase58).filter((_, i) => isWritableIndex(i, read.accountKeys.length, read.header))
        expect(new Set(writableRead)).toEqual(new Set(writable))
      })
    }
  }

  it("refuses truncated bytes and unknown message versions", () => {
    const { wire } = wireTransaction(0, 0)
    for (const cut of [0, 1, 40, 66, 67, 69, wire.length - 200]) expect(readMessageKeys(wire.subarray(0, cut))).toBeNull()
    const versionOne = wire.slice()
    versionOne[1 + 3 * 64] = 0x81 // three signatures, then the version byte
    expect(readMessageKeys(versionOne)).toBeNull()
  })

  it("reads a key count of two compact-u16 bytes (more than 127 keys)", () => {
    const keys = 130
    // One zero signature; legacy header [1, 0, 0]; 130 = 0x82 0x01 (7 bits per byte, low first).
    const wire = new Uint8Array(1 + 64 + 3 + 2 + keys * 32 + 10)
    wire.set([1], 0)
    wire.set([1, 0, 0, 0x82, 0x01], 65)
    for (let i = 0; i < keys; i++) wire.fill(i + 1, 70 + i * 32, 70 + (i + 1) * 32)
    const read = readMessageKeys(wire)!
    expect(read.accountKeys).toHaveLength(keys)
    expect(read.accountKeys.map((key) => key[0])).toEqual(Array.from({ length: keys }, (_, i) => i + 1))
    expect(readMessageKeys(wire.subarray(0, 70 + keys * 32 - 1))).toBeNull()
  })
})

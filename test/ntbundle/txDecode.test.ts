import { describe, expect, it } from "@effect/vitest"
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageEncoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction
} from "@solana/kit"
import { Either, FastCheck } from "effect"
import {
  createAssociatedTokenAccountIdempotentIx,
  memoIx,
  requestDepositIx,
  requestWithdrawalIx,
  setComputeUnitLimitIx,
  setComputeUnitPriceIx
} from "../../src/ntbundle/ix/index.ts"
import { NTBUNDLE_DEVNET_PROGRAM_ID, NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { decodeTransactionBase64, decodeTransactionBytes, type DecodedTransaction } from "../../src/ntbundle/txDecode.ts"
import { addr, golden, hexBytes } from "./golden.ts"

const fixture = golden.devnetDepositTransaction

/** The captured devnet deposit transaction, rebuilt byte for byte from its documented parts. */
const devnetTransactionBytes = (): Uint8Array => {
  const messageBytes = getCompiledTransactionMessageEncoder().encode({
    version: 0,
    header: fixture.header,
    staticAccounts: fixture.staticAccounts.map(addr),
    lifetimeToken: fixture.blockhash,
    instructions: fixture.instructions.map((ix) => ({
      programAddressIndex: fixture.staticAccounts.indexOf(ix.program),
      ...(ix.accountIndices.length === 0 ? {} : { accountIndices: [...ix.accountIndices] }),
      data: hexBytes(ix.dataHex)
    }))
  })
  expect(messageBytes.length).toBe(fixture.messageBytes)
  return new Uint8Array(
    getTransactionEncoder().encode({ messageBytes: messageBytes as never, signatures: { [addr(fixture.feePayerAndOnlySigner)]: null } })
  )
}

const decodeOk = (bytes: Uint8Array): DecodedTransaction => {
  const result = decodeTransactionBytes(bytes)
  if (Either.isLeft(result)) throw new Error(result.left.message)
  return result.right
}

const wireOf = (version: 0 | 1 | "legacy", feePayer: Address, instructions: ReadonlyArray<Instruction>): string =>
  getBase64EncodedWireTransaction(
    compileTransaction(
      pipe(
        createTransactionMessage({ version }),
        (m) => setTransactionMessageFeePayer(feePayer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: fixture.blockhash as Blockhash, lastValidBlockHeight: 1n }, m),
        (m) => appendTransactionMessageInstructions(instructions, m)
      )
    )
  )

describe("captured devnet deposit transaction", () => {
  const bytes = devnetTransactionBytes()
  const user = addr(fixture.feePayerAndOnlySigner)

  it("rebuilds to the documented 591 bytes", () => {
    expect(bytes.length).toBe(fixture.txBytes)
  })

  it("decodes to the documented instructions", () => {
    const tx = decodeOk(bytes)
    expect(tx.version).toBe(0)
    expect(tx.feePayer).toBe(fixture.feePayerAndOnlySigner)
    expect(tx.blockhash).toBe(fixture.blockhash)
    expect(tx.signatures).toEqual([null])
    expect(tx.header).toEqual(fixture.header)
    expect(tx.staticAccounts).toEqual(fixture.staticAccounts)
    expect(tx.staticAccounts).toHaveLength(14)
    expect(tx.addressTableLookups).toEqual([])
    expect(tx.instructions).toHaveLength(2)

    const [budget, deposit] = tx.instructions
    expect(budget).toEqual({
      programId: "ComputeBudget111111111111111111111111111111",
      accounts: [],
      dataHex: "0283b20000",
      decoded: { name: "SetComputeUnitLimit", args: { units: 45_699 } }
    })
    expect(deposit?.programId).toBe(NTBUNDLE_DEVNET_PROGRAM_ID)
    expect(deposit?.dataHex).toBe("f3cac5d78761d56d40420f0000000000")
    expect(deposit?.decoded).toEqual({ name: "request_deposit", args: { amount: 1_000_000n } })
    expect(deposit?.accounts.map((a) => a.address)).toEqual(fixture.instructions[1]!.accountIndices.map((i) => fixture.staticAccounts[i]))
    // 1 writable signer, 9 writable, 4 read-only (header: 1 signer, 4 read-only unsigned)
    expect(deposit?.accounts[0]).toEqual({ address: user, isSigner: true, isWritable: true })
    expect(deposit?.accounts.filter((a) => a.isWritable)).toHaveLength(10)
    expect(deposit?.accounts.slice(10)).toEqual([
      { address: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", isSigner: false, isWritable: false },
      { address: "11111111111111111111111111111111", isSigner: false, isWritable: false }
    ])
  })

  it("is exactly what our builders produce for the same deposit", () => {
    const wire = wireOf(0, user, [
      setComputeUnitLimitIx(45_699),
      requestDepositIx({
        program: NTBUNDLE_DEVNET_PROGRAM_ID,
        bundle: addr("8TqrZmyiWQ3F3WysiBaBQC1Nzj1LDn5AR7JjXBYzFxxQ"),
        user,
        assetMint: addr("6a8hWCCa2QDQTqzLUapZwZtgHTox8BsgataN6JVLwdo7"),
        treasury: addr("3G1TAQ6bcL2cJnPzg7QV16XknCsdxXhxGBtwMhuJESki"),
        amount: 1_000_000n
      })
    ])
    expect(wire).toBe(Buffer.from(bytes).toString("base64"))
    expect(Either.getOrThrow(decodeTransactionBase64(wire))).toEqual(decodeOk(bytes))
  })
})

describe("other transaction shapes", () => {
  const user = addr(golden.builders.user)
  const bundle = addr(golden.builders.bundle)
  const mint = addr("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
  const withdrawInstructions = [
    setComputeUnitLimitIx(60_000),
    setComputeUnitPriceIx(12_345n),
    createAssociatedTokenAccountIdempotentIx({ payer: user, owner: user, mint }),
    requestWithdrawalIx({ program: NTBUNDLE_PROGRAM_ID, bundle, user, sharesAmount: 49_494_949n }),
    memoIx("héllo")
  ]

  it("decodes compute budget, associated token, ntbundle and memo instructions", () => {
    const tx = Either.getOrThrow(decodeTransactionBase64(wireOf(0, user, withdrawInstructions)))
    expect(tx.instructions.map((ix) => ix.decoded)).toEqual([
      { name: "SetComputeUnitLimit", args: { units: 60_000 } },
      { name: "SetComputeUnitPrice", args: { microLamports: 12_345n } },
      { name: "CreateIdempotent", args: {} },
      { name: "request_withdrawal", args: { sharesAmount: 49_494_949n } },
      { name: "Memo", args: { text: "héllo" } }
    ])
    expect(tx.instructions[3]?.dataHex).toBe(golden.builders.withdraw.requestWithdrawal.dataHex)
  })

  it("decodes legacy transactions", () => {
    const tx = Either.getOrThrow(decodeTransactionBase64(wireOf("legacy", user, withdrawInstructions)))
    expect(tx.version).toBe("legacy")
    expect(tx.instructions).toHaveLength(5)
  })

  it("leaves unknown programs and undecodable data undecoded", () => {
    const other = addr("1111111111111111111111111111111N")
    const tx = Either.getOrThrow(
      decodeTransactionBase64(
        wireOf(0, user, [
          { programAddress: other, accounts: [], data: Uint8Array.of(1, 2) },
          { programAddress: NTBUNDLE_PROGRAM_ID, accounts: [], data: Uint8Array.of(9, 9, 9, 9, 9, 9, 9, 9) },
          { programAddress: addr("ComputeBudget111111111111111111111111111111"), accounts: [], data: Uint8Array.of(2, 1) },
          { programAddress: addr("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"), accounts: [], data: Uint8Array.of(0xff) }
        ])
      )
    )
    expect(tx.instructions.map((ix) => ix.decoded)).toEqual([null, null, null, null])
    expect(tx.instructions[0]?.dataHex).toBe("0102")
  })

  it("shows lookup-table accounts by table and index", () => {
    const table = addr("1111111111111111111111111111111P")
    const messageBytes = getCompiledTransactionMessageEncoder().encode({
      version: 0,
      header: { numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 1 },
      staticAccounts: [user, NTBUNDLE_PROGRAM_ID],
      lifetimeToken: fixture.blockhash,
      instructions: [{ programAddressIndex: 1, accountIndices: [0, 2, 3], data: hexBytes("7e06f22416d12302") }],
      addressTableLookups: [{ lookupTableAddress: table, writableIndexes: [7], readonlyIndexes: [3] }]
    })
    const bytes = new Uint8Array(getTransactionEncoder().encode({ messageBytes: messageBytes as never, signatures: { [user]: null } }))
    const tx = decodeOk(bytes)
    expect(tx.addressTableLookups).toEqual([{ table, writableIndexes: [7], readonlyIndexes: [3] }])
    expect(tx.instructions[0]?.accounts).toEqual([
      { address: user, isSigner: true, isWritable: true },
      { address: null, isSigner: false, isWritable: true, lookup: { table, index: 7 } },
      { address: null, isSigner: false, isWritable: false, lookup: { table, index: 3 } }
    ])
    expect(tx.instructions[0]?.decoded).toEqual({ name: "initialize_bundle_depositor", args: {} })
  })

  it("keeps signatures as base58 and zero slots as null", () => {
    const bytes = devnetTransactionBytes()
    bytes.fill(7, 1, 65)
    expect(decodeOk(bytes).signatures[0]).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/)
  })
})

describe("bad input gives a typed error, never an exception", () => {
  const valid = devnetTransactionBytes()
  const reasonOf = (result: ReturnType<typeof decodeTransactionBytes>) => (Either.isLeft(result) ? result.left.reason : "ok")

  it("names the failure", () => {
    expect(reasonOf(decodeTransactionBase64("not base64!"))).toBe("INVALID_BASE64")
    expect(reasonOf(decodeTransactionBase64(""))).toBe("EMPTY")
    expect(reasonOf(decodeTransactionBytes(Uint8Array.of(...valid, 0)))).toBe("TRAILING_BYTES")
    expect(reasonOf(decodeTransactionBytes(valid.subarray(0, 300)))).toBe("MALFORMED")
    // signature count 2 while the header requires 1
    expect(reasonOf(decodeTransactionBytes(Uint8Array.of(2, ...new Array(64).fill(0), ...valid.subarray(1))))).toBe("MALFORMED")
    // point the first instruction's program index (after signatures, prefix, header, keys, blockhash, count) past the keys
    const badProgramIndex = valid.slice()
    badProgramIndex[65 + 1 + 3 + 1 + 14 * 32 + 32 + 1] = 200
    expect(reasonOf(decodeTransactionBytes(badProgramIndex))).toBe("MALFORMED")
    const v1 = wireOf(1, addr(fixture.feePayerAndOnlySigner), [setComputeUnitLimitIx(1)])
    expect(reasonOf(decodeTransactionBase64(v1))).toBe("UNSUPPORTED_VERSION")
  })

  it("every truncation of a valid transaction is rejected", () => {
    for (let length = 0; length < valid.length; length++) {
      expect(Either.isLeft(decodeTransactionBytes(valid.subarray(0, length)))).toBe(true)
    }
  })

  it("random bytes never throw (property, 1000 cases)", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.uint8Array({ maxLength: 1232 }), (bytes) => {
        const result = decodeTransactionBytes(bytes)
        expect(Either.isEither(result)).toBe(true)
      }),
      { numRuns: 1000 }
    )
  })

  it("random corruptions of a valid transaction never throw (property, 1000 cases)", () => {
    FastCheck.assert(
      FastCheck.property(
        FastCheck.array(FastCheck.tuple(FastCheck.nat(valid.length - 1), FastCheck.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        FastCheck.nat(valid.length),
        (edits, cut) => {
          const bytes = valid.slice(0, Math.max(cut, 1))
          for (const [index, value] of edits) if (index < bytes.length) bytes[index] = value
          expect(Either.isEither(decodeTransactionBytes(bytes))).toBe(true)
        }
      ),
      { numRuns: 1000 }
    )
  })

  it("random strings never throw (property, 1000 cases)", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.oneof(FastCheck.string(), FastCheck.base64String()), (text) => {
        expect(Either.isEither(decodeTransactionBase64(text))).toBe(true)
      }),
      { numRuns: 1000 }
    )
  })
})

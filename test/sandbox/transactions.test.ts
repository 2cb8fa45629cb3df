import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  address,
  getCompiledTransactionMessageEncoder,
  isSolanaError,
  signature as toSignature,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__PROGRAM_ACCOUNT_NOT_FOUND
} from "@solana/kit"
import { encodeBase58 } from "../../src/ntbundle/base58.ts"
import { deterministicKeypair } from "../../src/sandbox/crypto/keypair.ts"
import { MEMO_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"
import { memo, systemTransfer, tokenTransferChecked } from "../../src/sandbox/programs/instructions.ts"
import { signTransaction } from "../../src/sandbox/runtime/compile.ts"
import { decodeTokenAccount } from "../../src/sandbox/programs/tokenLayout.ts"
import { buildWithKit, fundedKeypair, rpcCall, startTestSandbox, type TestSandbox } from "./support.ts"

let test: TestSandbox

beforeAll(async () => {
  test = await startTestSandbox()
})
afterAll(async () => {
  await test.sandbox.close()
})

const latestBlockhash = async () => (await test.rpc.getLatestBlockhash({ commitment: "confirmed" }).send()).value

const balanceOf = (addr: string): bigint => test.sandbox.ledger.getAccount(addr)?.lamports ?? 0n

/** Rejection of `promise` as a kit SolanaError (fails the test if it resolves). */
const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure
  )
  if (!isSolanaError(error)) throw new Error(`expected a SolanaError, got ${String(error)}`)
  return error
}

describe("transactions built and signed with kit", () => {
  it("lands a v0 System transfer: balances, getTransaction, getSignaturesForAddress, statuses", async () => {
    const { rpc, sandbox } = test
    const payer = fundedKeypair(sandbox, "tx-payer")
    const recipient = deterministicKeypair("test", "tx-recipient").address
    const { wire, signature } = await buildWithKit([payer], [systemTransfer(payer.address, recipient, 1_000_000_000n), memo("rent")], await latestBlockhash())
    const sent = await rpc.sendTransaction(wire, { encoding: "base64" }).send()
    expect(sent).toBe(signature)
    const slot = sandbox.ledger.slot
    expect(balanceOf(recipient)).toBe(1_000_000_000n)
    expect(balanceOf(payer.address)).toBe(10_000_000_000n - 1_000_000_000n - 5_000n)

    const landed = await rpc.getTransaction(toSignature(signature), { commitment: "confirmed", maxSupportedTransactionVersion: 0, encoding: "json" }).send()
    expect(landed).not.toBeNull()
    expect(landed!.slot).toBe(BigInt(slot))
    expect(landed!.version).toBe(0)
    expect(landed!.blockTime).toBe(BigInt(sandbox.ledger.clock.blockTime(slot)))
    expect(landed!.meta!.err).toBeNull()
    expect(landed!.meta!.status).toEqual({ Ok: null })
    expect(landed!.meta!.fee).toBe(5000n)
    expect(landed!.meta!.logMessages).toEqual([
      "Program 11111111111111111111111111111111 invoke [1]",
      "Program 11111111111111111111111111111111 success",
      "Program MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr invoke [1]",
      'Program log: Memo (len 4): "rent"',
      expect.stringMatching(/^Program MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr consumed \d+ of \d+ compute units$/),
      "Program MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr success"
    ])
    expect(landed!.meta!.preBalances[0]! - landed!.meta!.postBalances[0]!).toBe(1_000_005_000n)
    expect(landed!.transaction.message.accountKeys[0]).toBe(payer.address)

    const base64 = await rpc.getTransaction(toSignature(signature), { commitment: "confirmed", maxSupportedTransactionVersion: 0, encoding: "base64" }).send()
    expect(base64!.transaction[0]).toBe(wire)
    const withoutVersion = await rpcCall(sandbox.rpcUrl, "getTransaction", [signature, { commitment: "confirmed" }])
    expect(withoutVersion.error?.code).toBe(-32015)
    const config = { commitment: "confirmed", maxSupportedTransactionVersion: 0 }
    const malformed = await rpcCall(sandbox.rpcUrl, "getTransaction", [`${signature}0`, config])
    expect(malformed.error?.code).toBe(-32602)
    const unknown = await rpcCall(sandbox.rpcUrl, "getTransaction", [encodeBase58(new Uint8Array(64).fill(7)), config])
    expect(unknown.error).toBeUndefined()
    expect(unknown.result).toBeNull()

    const history = await rpc.getSignaturesForAddress(address(recipient), { commitment: "confirmed" }).send()
    expect(history.map((entry) => entry.signature)).toEqual([signature])
    expect(history[0]!.memo).toBe("[4] rent")
    expect(history[0]!.confirmationStatus).toBe("confirmed")
    const statuses = await rpc.getSignatureStatuses([toSignature(signature)]).send()
    expect(statuses.value[0]).toMatchObject({ slot: BigInt(slot), err: null, confirmationStatus: "confirmed", confirmations: 0n })
    sandbox.step(40)
    const finalized = await rpc.getSignatureStatuses([toSignature(signature)]).send()
    expect(finalized.value[0]).toMatchObject({ confirmationStatus: "finalized", confirmations: null })
  })

  it("pages getSignaturesForAddress newest first with before, until and limit", async () => {
    const { rpc, sandbox } = test
    const payer = fundedKeypair(sandbox, "paging-payer")
    const signatures: string[] = []
    for (let index = 0; index < 4; index++) {
      const { wire, signature } = await buildWithKit([payer], [systemTransfer(payer.address, sandbox.chain.faucet.address, BigInt(index + 1))], await latestBlockhash(), "legacy")
      await rpc.sendTransaction(wire, { encoding: "base64" }).send()
      signatures.push(signature)
      sandbox.step(1)
    }
    const newestFirst = [...signatures].reverse()
    const all = await rpc.getSignaturesForAddress(address(payer.address), { commitment: "confirmed" }).send()
    expect(all.map((entry) => entry.signature)).toEqual(newestFirst)
    const page = await rpc.getSignaturesForAddress(address(payer.address), { commitment: "confirmed", limit: 2 }).send()
    expect(page.map((entry) => entry.signature)).toEqual(newestFirst.slice(0, 2))
    const next = await rpc.getSignaturesForAddress(address(payer.address), { commitment: "confirmed", before: toSignature(newestFirst[1]!) }).send()
    expect(next.map((entry) => entry.signature)).toEqual(newestFirst.slice(2))
    const since = await rpc.getSignaturesForAddress(address(payer.address), { commitment: "confirmed", until: toSignature(signatures[1]!) }).send()
    expect(since.map((entry) => entry.signature)).toEqual(newestFirst.slice(0, 2))
  })

  it("lands an SPL Token TransferChecked between associated token accounts", async () => {
    const { rpc, sandbox } = test
    const owner = fundedKeypair(sandbox, "token-owner")
    const receiver = deterministicKeypair("test", "token-receiver").address
    const mint = deterministicKeypair("test", "token-mint").address
    sandbox.chain.createMint(mint, 6)
    const from = sandbox.chain.airdropTokens(owner.address, mint, 5_000_000n).tokenAccount
    const to = sandbox.chain.airdropTokens(receiver, mint, 0n).tokenAccount
    const { wire, signature } = await buildWithKit([owner], [tokenTransferChecked(from, mint, to, owner.address, 1_250_000n, 6)], await latestBlockhash(), "legacy")
    await rpc.sendTransaction(wire, { encoding: "base64" }).send()
    expect((await rpc.getTokenAccountBalance(address(from), { commitment: "confirmed" }).send()).value).toEqual({
      amount: "3750000",
      decimals: 6,
      uiAmount: 3.75,
      uiAmountString: "3.75"
    })
    expect(decodeTokenAccount(sandbox.ledger.getAccount(to)!.data)?.amount).toBe(1_250_000n)
    const landed = await rpc.getTransaction(toSignature(signature), { commitment: "confirmed", maxSupportedTransactionVersion: 0, encoding: "json" }).send()
    expect(landed!.version).toBe("legacy")
    expect(landed!.meta!.logMessages).toContain("Program log: Instruction: TransferChecked")
    expect(landed!.meta!.postTokenBalances?.map((row) => row.uiTokenAmount.amount).sort()).toEqual(["1250000", "3750000"])
    const byOwner = await rpc.getTokenAccountsByOwner(address(receiver), { mint: address(mint) }, { encoding: "jsonParsed" }).send()
    expect(byOwner.value.map((entry) => entry.pubkey)).toEqual([to])
    expect(byOwner.value[0]!.account.data.parsed.info.tokenAmount.amount).toBe("1250000")
  })
})

describe("rejected transactions answer as a node does and change nothing", () => {
  it("refuses a wrong signature with -32003", async () => {
    const { rpc, sandbox } = test
    const payer = fundedKeypair(sandbox, "forger")
    const { wire } = await buildWithKit([payer], [systemTransfer(payer.address, sandbox.chain.faucet.address, 1n)], await latestBlockhash())
    const bytes = Buffer.from(wire, "base64")
    bytes[5] = bytes[5]! ^ 0xff // inside the first signature
    const before = balanceOf(payer.address)
    const error = await rejection(rpc.sendTransaction(bytes.toString("base64") as typeof wire, { encoding: "base64" }).send())
    expect(error.context.__code).toBe(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE)
    const raw = await rpcCall(sandbox.rpcUrl, "sendTransaction", [bytes.toString("base64"), { encoding: "base64" }])
    expect(raw.error).toEqual({ code: -32003, message: "Transaction signature verification failure" })
    expect(balanceOf(payer.address)).toBe(before)
  })

  it("refuses an expired blockhash with a preflight failure (BlockhashNotFound)", async () => {
    const { rpc, sandbox } = test
    const payer = fundedKeypair(sandbox, "late")
    const old = await latestBlockhash()
    sandbox.step(151)
    const { wire } = await buildWithKit([payer], [systemTransfer(payer.address, sandbox.chain.faucet.address, 1n)], old)
    const error = await rejection(rpc.sendTransaction(wire, { encoding: "base64" }).send())
    expect(error.context.__code).toBe(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)
    expect(isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)).toBe(true)
    const raw = await rpcCall(sandbox.rpcUrl, "sendTransaction", [wire, { encoding: "base64" }])
    expect(raw.error?.message).toBe("Transaction simulation failed: Blockhash not found")
    expect(raw.error?.data).toMatchObject({ err: "BlockhashNotFound", logs: [], accounts: null, unitsConsumed: 0 })
    expect(balanceOf(payer.address)).toBe(10_000_000_000n)
    const valid = await rpc.isBlockhashValid(old.blockhash, { commitment: "confirmed" }).send()
    expect(valid.value).toBe(false)
  })

  it("refuses an unknown program (ProgramAccountNotFound)", async () => {
    const { rpc, sandbox } = test
    const payer = fundedKeypair(sandbox, "unknown-caller")
    const unknownProgram = deterministicKeypair("test", "no-such-program").address
    const instruction = { programId: unknownProgram, accounts: [{ address: payer.address, isSigner: true, isWritable: true }], data: Uint8Array.of(1, 2, 3) }
    const { wire } = await buildWithKit([payer], [instruction], await latestBlockhash())
    const error = await rejection(rpc.sendTransaction(wire, { encoding: "base64" }).send())
    expect(isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__PROGRAM_ACCOUNT_NOT_FOUND)).toBe(true)
    const raw = await rpcCall(sandbox.rpcUrl, "sendTransaction", [wire, { encoding: "base64" }])
    expect(raw.error?.message).toBe("Transaction simulation failed: Attempt to load a program that does not exist")
    expect(balanceOf(payer.address)).toBe(10_000_000_000n)
  })

  it("refuses a transfer beyond the balance with the System program's custom error and log", async () => {
    const { rpc, sandbox } = test
    const payer = fundedKeypair(sandbox, "poor", 1_000_000_000n)
    const { wire } = await buildWithKit([payer], [systemTransfer(payer.address, sandbox.chain.faucet.address, 2_000_000_000n)], await latestBlockhash())
    const error = await rejection(rpc.sendTransaction(wire, { encoding: "base64" }).send())
    expect(isSolanaError(error.cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true)
    const raw = await rpcCall(sandbox.rpcUrl, "sendTransaction", [wire, { encoding: "base64" }])
    expect(raw.error?.message).toBe("Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1")
    expect(raw.error?.data).toMatchObject({
      err: { InstructionError: [0, { Custom: 1 }] },
      logs: [
        "Program 11111111111111111111111111111111 invoke [1]",
        `Transfer: insufficient lamports 999995000, need 2000000000`,
        "Program 11111111111111111111111111111111 failed: custom program error: 0x1"
      ]
    })
    expect(balanceOf(payer.address)).toBe(1_000_000_000n)
  })

  it("undoes the first instruction when the second fails (atomic)", async () => {
    const { rpc, sandbox } = test
    const payer = fundedKeypair(sandbox, "atomic", 3_000_000_000n)
    const recipient = deterministicKeypair("test", "atomic-recipient").address
    const instructions = [systemTransfer(payer.address, recipient, 1_000_000_000n), systemTransfer(payer.address, recipient, 5_000_000_000n)]
    const { wire, signature } = await buildWithKit([payer], instructions, await latestBlockhash())
    const error = await rejection(rpc.sendTransaction(wire, { encoding: "base64" }).send())
    expect(error.context.__code).toBe(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)
    expect(balanceOf(recipient)).toBe(0n)
    expect(balanceOf(payer.address)).toBe(3_000_000_000n)
    expect(await rpc.getTransaction(toSignature(signature), { commitment: "confirmed", maxSupportedTransactionVersion: 0, encoding: "json" }).send()).toBeNull()

    // Without preflight the failed transaction lands: fee charged, transfers undone, error recorded.
    await rpc.sendTransaction(wire, { encoding: "base64", skipPreflight: true }).send()
    expect(balanceOf(recipient)).toBe(0n)
    expect(balanceOf(payer.address)).toBe(3_000_000_000n - 5_000n)
    const landed = await rpc.getTransaction(toSignature(signature), { commitment: "confirmed", maxSupportedTransactionVersion: 0, encoding: "json" }).send()
    // kit reads every JSON integer as a bigint, error indexes and codes included.
    expect(landed!.meta!.err).toEqual({ InstructionError: [1n, { Custom: 1n }] })
    expect(landed!.meta!.status).toEqual({ Err: { InstructionError: [1n, { Custom: 1n }] } })
    const statuses = await rpc.getSignatureStatuses([toSignature(signature)]).send()
    expect(statuses.value[0]?.err).toEqual({ InstructionError: [1n, { Custom: 1n }] })
  })

  it("refuses a v0 transaction that loads an address lookup table (not supported)", async () => {
    const { sandbox } = test
    const payer = fundedKeypair(sandbox, "lookup-user")
    const table = deterministicKeypair("test", "lookup-table").address
    const messageBytes = new Uint8Array(
      getCompiledTransactionMessageEncoder().encode({
        version: 0,
        header: { numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 1 },
        staticAccounts: [address(payer.address), address(MEMO_PROGRAM_ID)],
        lifetimeToken: sandbox.ledger.clock.blockhash(),
        instructions: [{ programAddressIndex: 1, accountIndices: [2], data: new TextEncoder().encode("hi") }],
        addressTableLookups: [{ lookupTableAddress: address(table), writableIndexes: [], readonlyIndexes: [0] }]
      })
    )
    const wire = signTransaction({ messageBytes, signers: [payer.address] }, [payer])
    const raw = await rpcCall(sandbox.rpcUrl, "sendTransaction", [Buffer.from(wire).toString("base64"), { encoding: "base64" }])
    expect(raw.error?.code).toBe(-32002)
    expect(raw.error?.data).toMatchObject({ err: "AddressLookupTableNotFound" })
    expect(balanceOf(payer.address)).toBe(10_000_000_000n)
  })

  it("simulates with logs and units, honouring sigVerify and replaceRecentBlockhash", async () => {
    const { rpc, sandbox } = test
    const payer = fundedKeypair(sandbox, "simulator")
    const old = await latestBlockhash()
    sandbox.step(200)
    const { wire } = await buildWithKit([payer], [memo("simulated")], old)
    const stale = await rpc.simulateTransaction(wire, { encoding: "base64", commitment: "confirmed" }).send()
    expect(stale.value.err).toBe("BlockhashNotFound")
    const replaced = await rpc.simulateTransaction(wire, { encoding: "base64", replaceRecentBlockhash: true, commitment: "confirmed" }).send()
    expect(replaced.value.err).toBeNull()
    expect(replaced.value.logs).toContain('Program log: Memo (len 9): "simulated"')
    expect(replaced.value.unitsConsumed).toBeGreaterThan(0n)
    expect(replaced.value.replacementBlockhash?.blockhash).toBe(sandbox.ledger.clock.blockhash())
    const both = await rpcCall(sandbox.rpcUrl, "simulateTransaction", [wire, { encoding: "base64", sigVerify: true, replaceRecentBlockhash: true }])
    expect(both.error?.code).toBe(-32602)
    expect(balanceOf(payer.address)).toBe(10_000_000_000n)
  })
})

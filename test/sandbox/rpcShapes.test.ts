import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  isSolanaError,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Blockhash
} from "@solana/kit"
import { deterministicKeypair } from "../../src/sandbox/crypto/keypair.ts"
import { TOKEN_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"
import { systemTransfer } from "../../src/sandbox/programs/instructions.ts"
import { fundedKeypair, postJson, rpcCall, startTestSandbox, toKitInstruction, type TestSandbox } from "./support.ts"

let test: TestSandbox

beforeAll(async () => {
  test = await startTestSandbox()
})
afterAll(async () => {
  await test.sandbox.close()
})

describe("sandbox JSON-RPC shapes, parsed by kit", () => {
  it("answers cluster methods", async () => {
    const { rpc } = test
    expect(await rpc.getHealth().send()).toBe("ok")
    const version = await rpc.getVersion().send()
    expect(version["solana-core"]).toMatch(/^\d+\.\d+\.\d+$/)
    expect(typeof version["feature-set"]).toBe("number")
    const genesis = await rpc.getGenesisHash().send()
    expect(genesis).toBe(test.sandbox.chain.genesisHash)
    const other = await startTestSandbox()
    try {
      expect(await other.rpc.getGenesisHash().send()).not.toBe(genesis)
    } finally {
      await other.sandbox.close()
    }
  })

  it("reports slot, block height, block time and blockhash consistently", async () => {
    const { rpc, sandbox } = test
    sandbox.step(3)
    const slot = await rpc.getSlot({ commitment: "confirmed" }).send()
    expect(slot).toBe(BigInt(sandbox.ledger.slot))
    const height = await rpc.getBlockHeight({ commitment: "confirmed" }).send()
    expect(height).toBe(slot - BigInt(sandbox.ledger.clock.firstSlot))
    expect(height).not.toBe(slot)
    const latest = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send()
    expect(latest.context.slot).toBe(slot)
    expect(latest.value.lastValidBlockHeight).toBe(height + 150n)
    expect(latest.value.blockhash).toBe(sandbox.ledger.clock.blockhash())
    expect((await rpc.isBlockhashValid(latest.value.blockhash, { commitment: "confirmed" }).send()).value).toBe(true)
    expect((await rpc.isBlockhashValid("11111111111111111111111111111111" as Blockhash).send()).value).toBe(false)
    const blockTime = await rpc.getBlockTime(slot).send()
    expect(Number(blockTime)).toBe(Math.floor(sandbox.ledger.clock.unixMs(Number(slot)) / 1000))
    await expect(rpc.getBlockTime(slot + 1000n).send()).rejects.toSatisfy((error) => isSolanaError(error) && error.context.__code === -32004)
  })

  it("trails finalized behind the tip", async () => {
    const { rpc, sandbox } = test
    sandbox.step(40)
    const confirmed = await rpc.getSlot({ commitment: "confirmed" }).send()
    const finalized = await rpc.getSlot({ commitment: "finalized" }).send()
    expect(confirmed - finalized).toBe(32n)
    expect(await rpc.getSlot().send()).toBe(confirmed) // kit's default commitment is confirmed
    const raw = await rpcCall(sandbox.rpcUrl, "getSlot")
    expect(raw.result).toBe(Number(finalized)) // a node's default is finalized
  })

  it("returns accounts in base64, base58 and jsonParsed, with u64 fields as numbers", async () => {
    const { rpc, sandbox } = test
    const payer = fundedKeypair(sandbox, "shapes-payer", 5_000_000_000n)
    const info = await rpc.getAccountInfo(address(payer.address), { encoding: "base64" }).send()
    expect(info.value).toEqual({ data: ["", "base64"], executable: false, lamports: 5_000_000_000n, owner: "11111111111111111111111111111111", rentEpoch: 18446744073709551615n, space: 0n })
    const raw = await postJson(sandbox.rpcUrl, { jsonrpc: "2.0", id: 7, method: "getBalance", params: [payer.address] })
    expect(raw.text).toMatch(/"value":5000000000[,}]/)
    expect((await rpc.getBalance(address(payer.address)).send()).value).toBe(5_000_000_000n)
    const missing = await rpc.getAccountInfo(address("9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"), { encoding: "base64" }).send()
    expect(missing.value).toBeNull()
    const multiple = await rpc.getMultipleAccounts([address(payer.address), address("9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin")], { encoding: "base58" }).send()
    expect(multiple.value[0]?.data).toEqual(["", "base58"])
    expect(multiple.value[1]).toBeNull()

    const mint = deterministicKeypair("test", "shapes-mint").address
    sandbox.chain.createMint(mint, 9)
    const parsed = await rpc.getAccountInfo(address(mint), { encoding: "jsonParsed" }).send()
    expect(parsed.value?.data).toEqual({
      parsed: { info: { decimals: 9, freezeAuthority: null, isInitialized: true, mintAuthority: sandbox.chain.faucet.address, supply: "0" }, type: "mint" },
      program: "spl-token",
      space: 82n
    })
    expect(parsed.value?.owner).toBe(TOKEN_PROGRAM_ID)
  })

  it("answers rent, fee and prioritization queries", async () => {
    const { rpc, sandbox } = test
    expect(await rpc.getMinimumBalanceForRentExemption(0n).send()).toBe(890_880n)
    expect(await rpc.getMinimumBalanceForRentExemption(165n).send()).toBe(2_039_280n)
    const payer = fundedKeypair(sandbox, "fee-payer")
    const latest = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send()
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayer(address(payer.address), draft),
      (draft) => setTransactionMessageLifetimeUsingBlockhash(latest.value, draft),
      (draft) => appendTransactionMessageInstructions([toKitInstruction(systemTransfer(payer.address, payer.address, 1n))], draft)
    )
    const compiled = compileTransaction(message)
    const base64 = Buffer.from(compiled.messageBytes).toString("base64")
    const fee = await rpc.getFeeForMessage(base64 as Parameters<typeof rpc.getFeeForMessage>[0], { commitment: "confirmed" }).send()
    expect(fee.value).toBe(5000n)
    const fees = await rpc.getRecentPrioritizationFees().send()
    expect(fees.length).toBeGreaterThan(0)
    expect(fees[fees.length - 1]?.slot).toBe(BigInt(sandbox.ledger.slot))
    expect(typeof fees[0]?.prioritizationFee).toBe("bigint")
  })

  it("speaks JSON-RPC 2.0: batches, notifications, parse errors, unknown methods, bad params", async () => {
    const { sandbox } = test
    const batch = await postJson(sandbox.rpcUrl, [
      { jsonrpc: "2.0", id: 1, method: "getHealth" },
      { jsonrpc: "2.0", id: "two", method: "noSuchMethod" },
      { jsonrpc: "2.0", method: "getHealth" },
      { jsonrpc: "2.0", id: 3, method: "getBalance", params: ["not-an-address"] }
    ])
    expect(batch.json).toEqual([
      { jsonrpc: "2.0", result: "ok", id: 1 },
      { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: "two" },
      { jsonrpc: "2.0", error: { code: -32602, message: "Invalid param: WrongSize" }, id: 3 }
    ])
    const parseError = await postJson(sandbox.rpcUrl, "{not json")
    expect(parseError.status).toBe(200)
    expect(parseError.json).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null })
    expect((await postJson(sandbox.rpcUrl, [])).json).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: null })
    expect((await postJson(sandbox.rpcUrl, { jsonrpc: "2.0", method: "getHealth" })).text).toBe("")
    const missingParam = await rpcCall(sandbox.rpcUrl, "getAccountInfo", [])
    expect(missingParam.error?.code).toBe(-32602)
  })

  it("refuses a read that needs a later slot (minContextSlot)", async () => {
    const { rpc, sandbox } = test
    const future = BigInt(sandbox.ledger.slot + 10)
    const failure = await rpc
      .getBalance(address(sandbox.chain.faucet.address), { minContextSlot: future })
      .send()
      .catch((error: unknown) => error)
    expect(isSolanaError(failure)).toBe(true)
    const raw = await rpcCall(sandbox.rpcUrl, "getBalance", [sandbox.chain.faucet.address, { minContextSlot: Number(future) }])
    expect(raw.error).toEqual({ code: -32016, message: "Minimum context slot has not been reached", data: { contextSlot: sandbox.ledger.slot } })
  })
})

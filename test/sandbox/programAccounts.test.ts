import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { address, isSolanaError } from "@solana/kit"
import { encodeBase58 } from "../../src/ntbundle/base58.ts"
import { deterministicKeypair } from "../../src/sandbox/crypto/keypair.ts"
import { createRandom } from "../../src/sandbox/crypto/random.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"
import { postJson, rpcCall, startTestSandbox, type TestSandbox } from "./support.ts"

let test: TestSandbox
const PROGRAM = DEFAULT_NTBUNDLE_PROGRAM_ID
const referrer = deterministicKeypair("test", "referrer")
const otherReferrer = deterministicKeypair("test", "other-referrer")
const referred: string[] = []

/** 48-byte records: 8-byte tag, a 32-byte "referrer" at offset 8, an 8-byte counter. */
const record = (tag: number, referrerKey: Uint8Array, counter: number): Uint8Array => {
  const data = new Uint8Array(48)
  data[0] = tag
  data.set(referrerKey, 8)
  new DataView(data.buffer).setBigUint64(40, BigInt(counter), true)
  return data
}

beforeAll(async () => {
  test = await startTestSandbox()
  for (let index = 0; index < 30; index++) {
    const key = deterministicKeypair("test", `user-${index}`).address
    const referrerKey = index % 3 === 0 ? referrer.publicKey : otherReferrer.publicKey
    if (index % 3 === 0) referred.push(key)
    // Through the sandbox_setAccount contract, data given as [base64, "base64"].
    const answer = await rpcCall(test.sandbox.rpcUrl, "sandbox_setAccount", [
      { address: key, owner: PROGRAM, data: [Buffer.from(record(1, referrerKey, index)).toString("base64"), "base64"] }
    ])
    expect(answer.error).toBeUndefined()
  }
  // A differently sized account of the same program, and a same-sized one of another owner.
  test.sandbox.chain.setAccount(deterministicKeypair("test", "odd").address, { owner: PROGRAM, lamports: 1_000_000n, data: new Uint8Array(47), executable: false })
  test.sandbox.chain.setAccount(deterministicKeypair("test", "foreign").address, {
    owner: deterministicKeypair("test", "foreign-program").address,
    lamports: 1_000_000n,
    data: record(1, referrer.publicKey, 0),
    executable: false
  })
})
afterAll(async () => {
  await test.sandbox.close()
})

describe("getProgramAccounts", () => {
  it("filters with memcmp (base58 or base64 bytes) and dataSize", async () => {
    const { rpc } = test
    const base58 = await rpc
      .getProgramAccounts(address(PROGRAM), {
        encoding: "base64",
        filters: [{ dataSize: 48n }, { memcmp: { offset: 8n, bytes: referrer.address as never, encoding: "base58" } }]
      })
      .send()
    expect(base58.map((entry) => entry.pubkey).sort()).toEqual([...referred].sort())
    for (const entry of base58) {
      expect(entry.account.owner).toBe(PROGRAM)
      expect(Buffer.from(entry.account.data[0], "base64").subarray(8, 40)).toEqual(Buffer.from(referrer.publicKey))
    }
    const base64 = await rpc
      .getProgramAccounts(address(PROGRAM), {
        encoding: "base64",
        filters: [{ memcmp: { offset: 8n, bytes: Buffer.from(referrer.publicKey).toString("base64") as never, encoding: "base64" } }]
      })
      .send()
    expect(base64.map((entry) => entry.pubkey).sort()).toEqual([...referred].sort())
    const sized = await rpc.getProgramAccounts(address(PROGRAM), { encoding: "base64", filters: [{ dataSize: 47n }] }).send()
    expect(sized.map((entry) => entry.pubkey)).toEqual([deterministicKeypair("test", "odd").address])
    const all = await rpc.getProgramAccounts(address(PROGRAM), { encoding: "base64" }).send()
    expect(all).toHaveLength(31) // 30 records and the odd one; the foreign-owned record is not the program's
  })

  it("slices data, wraps the answer with its context, and honours minContextSlot", async () => {
    const { rpc, sandbox } = test
    const sliced = await rpc
      .getProgramAccounts(address(PROGRAM), { encoding: "base64", dataSlice: { offset: 40, length: 8 }, filters: [{ dataSize: 48n }], withContext: true })
      .send()
    expect(sliced.context.slot).toBe(BigInt(sandbox.ledger.slot))
    expect(sliced.value).toHaveLength(30)
    const counters = sliced.value.map((entry) => Buffer.from(entry.account.data[0], "base64").readBigUInt64LE(0)).sort((a, b) => Number(a - b))
    expect(counters).toEqual(Array.from({ length: 30 }, (_, index) => BigInt(index)))
    expect(sliced.value[0]!.account.space).toBe(48n)
    const future = await rpc
      .getProgramAccounts(address(PROGRAM), { encoding: "base64", minContextSlot: BigInt(sandbox.ledger.slot + 5) })
      .send()
      .catch((error: unknown) => error)
    expect(isSolanaError(future)).toBe(true)
  })

  it("rejects bad filters and base58 for large data", async () => {
    const { sandbox } = test
    const tooMany = await rpcCall(sandbox.rpcUrl, "getProgramAccounts", [PROGRAM, { encoding: "base64", filters: Array(5).fill({ dataSize: 1 }) }])
    expect(tooMany.error?.code).toBe(-32602)
    const badBytes = await rpcCall(sandbox.rpcUrl, "getProgramAccounts", [PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: "0OIl" } }] }])
    expect(badBytes.error?.code).toBe(-32602)
    sandbox.chain.setAccount(deterministicKeypair("test", "big").address, { owner: deterministicKeypair("test", "big-owner").address, lamports: 1n, data: new Uint8Array(200), executable: false })
    const base58 = await rpcCall(sandbox.rpcUrl, "getProgramAccounts", [deterministicKeypair("test", "big-owner").address, { encoding: "base58" }])
    expect(base58.error?.message).toMatch(/base 58.*please use Base64/)
  })

  it("streams large answers (many accounts, several write chunks) intact", async () => {
    const { sandbox } = test
    const owner = deterministicKeypair("test", "bulk-owner").address
    const random = createRandom("test", "bulk-addresses")
    const data = new Uint8Array(440).fill(0xab)
    sandbox.ledger.writeAccounts(
      Array.from({ length: 5_000 }, () => [encodeBase58(random.bytes(32)), { owner, lamports: 4_000_000n, data, executable: false }] as const),
      { notify: false }
    )
    const answer = await postJson(sandbox.rpcUrl, { jsonrpc: "2.0", id: 1, method: "getProgramAccounts", params: [owner, { encoding: "base64" }] })
    expect(answer.text.length).toBeGreaterThan(3 * 256 * 1024)
    const result = (answer.json as { result: Array<{ pubkey: string; account: { data: [string, string] } }> }).result
    expect(result).toHaveLength(5_000)
    expect(new Set(result.map((entry) => entry.pubkey)).size).toBe(5_000)
    expect(Buffer.from(result[4_999]!.account.data[0], "base64")).toEqual(Buffer.from(data))
  })
})

describe("sandbox_snapshot", () => {
  it("returns every account of the program at one slot", async () => {
    const { sandbox } = test
    const answer = await rpcCall(sandbox.rpcUrl, "sandbox_snapshot")
    const snapshot = answer.result as { slot: number; accounts: Array<{ address: string; owner: string; data: [string, string] }> }
    expect(snapshot.slot).toBe(sandbox.ledger.slot)
    expect(snapshot.accounts).toHaveLength(31)
    expect(snapshot.accounts.every((account) => account.owner === PROGRAM && account.data[1] === "base64")).toBe(true)
    const first = snapshot.accounts.find((account) => account.address === referred[0])!
    expect(Buffer.from(first.data[0], "base64")).toEqual(Buffer.from(sandbox.ledger.getAccount(referred[0]!)!.data))
  })
})

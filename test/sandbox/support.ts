import {
  AccountRole,
  appendTransactionMessageInstructions,
  compileTransaction,
  createKeyPairFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
  type Address,
  type Base64EncodedWireTransaction,
  type Blockhash,
  type Instruction as KitInstruction
} from "@solana/kit"
import { deterministicKeypair, type Keypair } from "../../src/sandbox/crypto/keypair.ts"
import { SYSTEM_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"
import { customError, fail, InstructionFailure } from "../../src/sandbox/runtime/errors.ts"
import type { Instruction, ProgramHandler } from "../../src/sandbox/runtime/program.ts"
import { startSandbox, type SandboxHandle, type SandboxOptions } from "../../src/sandbox/sandbox.ts"

/** A sandbox on free loopback ports with a manual clock, plus kit clients pointed at it. */
export interface TestSandbox {
  readonly sandbox: SandboxHandle
  readonly rpc: ReturnType<typeof createSolanaRpc>
  readonly subscriptions: ReturnType<typeof createSolanaRpcSubscriptions>
}

export const startTestSandbox = async (options: SandboxOptions = {}): Promise<TestSandbox> => {
  const sandbox = await startSandbox({ port: 0, clock: "manual", seed: "test", ...options })
  return { sandbox, rpc: createSolanaRpc(sandbox.rpcUrl), subscriptions: createSolanaRpcSubscriptions(sandbox.wsUrl) }
}

/** A funded System account (direct ledger write) for tests to pay fees with. */
export const fundedKeypair = (sandbox: SandboxHandle, label: string, lamports = 10_000_000_000n): Keypair => {
  const keypair = deterministicKeypair("test", label)
  sandbox.chain.setAccount(keypair.address, { owner: SYSTEM_PROGRAM_ID, lamports, data: new Uint8Array(0), executable: false })
  return keypair
}

/** Our instruction shape to kit's. */
export const toKitInstruction = (instruction: Instruction): KitInstruction => ({
  programAddress: instruction.programId as Address,
  accounts: instruction.accounts.map((meta) => ({
    address: meta.address as Address,
    role: meta.isSigner
      ? meta.isWritable
        ? AccountRole.WRITABLE_SIGNER
        : AccountRole.READONLY_SIGNER
      : meta.isWritable
        ? AccountRole.WRITABLE
        : AccountRole.READONLY
  })),
  data: instruction.data
})

/** Builds a transaction with kit, signs it with kit (WebCrypto), returns base64 wire bytes and its signature. */
export const buildWithKit = async (
  signers: ReadonlyArray<Keypair>,
  instructions: ReadonlyArray<Instruction>,
  blockhash: { readonly blockhash: string; readonly lastValidBlockHeight: bigint },
  version: 0 | "legacy" = 0
): Promise<{ readonly wire: Base64EncodedWireTransaction; readonly signature: string }> => {
  const [feePayer] = signers
  if (feePayer === undefined) throw new Error("need a fee payer")
  const message = pipe(
    createTransactionMessage({ version }),
    (draft) => setTransactionMessageFeePayer(feePayer.address as Address, draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash.blockhash as Blockhash, lastValidBlockHeight: blockhash.lastValidBlockHeight }, draft),
    (draft) => appendTransactionMessageInstructions(instructions.map(toKitInstruction), draft)
  )
  const keyPairs = await Promise.all(signers.map((signer) => createKeyPairFromBytes(signer.secretKey)))
  const signed = await signTransaction(keyPairs, compileTransaction(message))
  const signature = signed.signatures[feePayer.address as Address]
  if (signature === null || signature === undefined) throw new Error("fee payer did not sign")
  const { encodeBase58 } = await import("../../src/ntbundle/base58.ts")
  return { wire: getBase64EncodedWireTransaction(signed), signature: encodeBase58(signature) }
}

/** Posts raw JSON-RPC and returns the parsed body (for checking exact wire shapes). */
export const postJson = async (url: string, body: unknown): Promise<{ readonly status: number; readonly headers: Headers; readonly json: unknown; readonly text: string }> => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) })
  const text = await response.text()
  let json: unknown = undefined
  try {
    json = text.length === 0 ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, json, text }
}

export const rpcCall = async (url: string, method: string, params: ReadonlyArray<unknown> = []): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> => {
  const { json } = await postJson(url, { jsonrpc: "2.0", id: 1, method, params })
  return json as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
}

/** Drains a subscription in the background so tests can wait for counts without losing items. */
export interface Collected<T> {
  readonly items: ReadonlyArray<T>
  readonly error: () => unknown
  /** Resolves true once `count` items arrived, false after `ms` (or when the stream failed). */
  readonly waitFor: (count: number, ms?: number) => Promise<boolean>
}

export const collect = <T>(iterable: AsyncIterable<T>): Collected<T> => {
  const items: T[] = []
  let failure: unknown = undefined
  void (async () => {
    try {
      for await (const item of iterable) items.push(item)
    } catch (error) {
      failure = error ?? new Error("subscription failed")
    }
  })()
  return {
    items,
    error: () => failure,
    waitFor: async (count, ms = 2_000) => {
      const deadline = Date.now() + ms
      while (items.length < count && failure === undefined && Date.now() < deadline) await sleep(5)
      return items.length >= count
    }
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A small program plugged in through the registry, for tests: instruction [0, n] adds n to the
 * u64 at offset 8 of account 0 (which it owns) and emits `Program data:` with the new value;
 * [1, code] fails with custom error `code`; [2] writes to account 0 and then fails.
 */
export const COUNTER_PROGRAM_ID = deterministicKeypair("test", "counter-program").address
export const COUNTER_DISCRIMINATOR = Uint8Array.of(7, 7, 7, 7, 7, 7, 7, 7)

export const counterProgram: ProgramHandler = {
  programId: COUNTER_PROGRAM_ID,
  name: "counter",
  kind: "bpf",
  baseComputeUnits: 1_000,
  execute: (context) => {
    const [tag, argument] = context.instruction.data
    const target = context.accountAt(0)
    if (tag === 1) return new InstructionFailure(customError(argument ?? 0), "Error: asked to fail")
    const data = context.dataMut(target.address)
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    view.setBigUint64(8, view.getBigUint64(8, true) + BigInt(argument ?? 0), true)
    if (tag === 2) fail("InvalidArgument")
    context.log(`counter is ${view.getBigUint64(8, true)}`)
    context.emitData(COUNTER_DISCRIMINATOR, data.subarray(8, 16))
    return undefined
  }
}

export const counterInstruction = (counter: string, amount: number, tag = 0): Instruction => ({
  programId: COUNTER_PROGRAM_ID,
  accounts: [{ address: counter, isSigner: false, isWritable: true }],
  data: Uint8Array.of(tag, amount)
})

/** Registers the counter program and creates a counter account (16 bytes: discriminator, value). */
export const createCounter = (sandbox: SandboxHandle, label: string): string => {
  if (!sandbox.chain.programs.has(COUNTER_PROGRAM_ID)) sandbox.chain.registerProgram(counterProgram)
  const counter = deterministicKeypair("test", label).address
  const data = new Uint8Array(16)
  data.set(COUNTER_DISCRIMINATOR, 0)
  sandbox.chain.setAccount(counter, { owner: COUNTER_PROGRAM_ID, lamports: 1_000_000_000n, data, executable: false })
  return counter
}

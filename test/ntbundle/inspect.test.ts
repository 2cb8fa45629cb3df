import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { getCompiledTransactionMessageEncoder, getTransactionEncoder } from "@solana/kit"
import { Either } from "effect"
import { inspect, inspectToJson } from "../../src/commands/inspect.ts"
import { eventLogLine } from "../../src/ntbundle/events.ts"
import { addr, golden, hexBytes } from "./golden.ts"

const run = promisify(execFile)
const root = fileURLToPath(new URL("../../", import.meta.url))

interface Outcome {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const cli = async (...args: ReadonlyArray<string>): Promise<Outcome> => {
  try {
    const { stdout, stderr } = await run("node", ["bin/vault-gateway.js", "inspect", ...args], { cwd: root })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" }
  }
}

/** The same command in this process, with stdout and stderr captured. */
const inProcess = async (...args: ReadonlyArray<string>): Promise<Outcome> => {
  let stdout = ""
  let stderr = ""
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true))
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true))
  try {
    const code = await inspect.run(args)
    return { code, stdout, stderr }
  } finally {
    out.mockRestore()
    err.mockRestore()
  }
}

const depositEvent = eventLogLine({
  name: "DepositRequested",
  data: {
    user: addr(golden.builders.user),
    amount: 100_000_000n,
    timestamp: 1_790_000_000n,
    bundleAccountKey: addr(golden.builders.bundle),
    toppingUp: false,
    grossAmount: 100_000_000n,
    feeAmount: 0n,
    netAmount: 100_000_000n,
    assetMint: addr("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
  }
})

const devnetTransactionBase64 = (): string => {
  const f = golden.devnetDepositTransaction
  const messageBytes = getCompiledTransactionMessageEncoder().encode({
    version: 0,
    header: f.header,
    staticAccounts: f.staticAccounts.map(addr),
    lifetimeToken: f.blockhash,
    instructions: f.instructions.map((ix) => ({
      programAddressIndex: f.staticAccounts.indexOf(ix.program),
      ...(ix.accountIndices.length === 0 ? {} : { accountIndices: [...ix.accountIndices] }),
      data: hexBytes(ix.dataHex)
    }))
  })
  const wire = getTransactionEncoder().encode({ messageBytes: messageBytes as never, signatures: { [addr(f.feePayerAndOnlySigner)]: null } })
  return Buffer.from(wire).toString("base64")
}

describe("vault-gateway inspect", () => {
  const bundleHex = golden.accounts.Bundle.hex
  const outcomes: Record<string, Outcome> = {}
  // Child processes (the real binary) for the two documented contracts; the rest in-process,
  // since each child pays the TypeScript loader's start-up.
  const childCases: Record<string, ReadonlyArray<string>> = {
    bundleHex: ["account", bundleHex],
    unknownDiscriminator: ["account", "00112233445566778899"]
  }
  const inProcessCases: Record<string, ReadonlyArray<string>> = {
    userBase64: ["account", Buffer.from(golden.accounts.UserBundleAccount.hex, "hex").toString("base64")],
    event: ["event", depositEvent],
    tx: ["tx", devnetTransactionBase64()],
    help: ["--help"],
    notEncoded: ["account", "not-hex-or-base64!"],
    truncated: ["account", bundleHex.slice(0, 200)],
    badTx: ["tx", "AAAA"],
    unknownKind: ["block", "00"],
    missingData: ["account"],
    unknownOption: ["account", bundleHex, "--yaml"]
  }

  beforeAll(async () => {
    const children = Promise.all(Object.entries(childCases).map(async ([name, args]) => [name, await cli(...args)] as const))
    for (const [name, args] of Object.entries(inProcessCases)) outcomes[name] = await inProcess(...args)
    for (const [name, outcome] of await children) outcomes[name] = outcome
  }, 60_000)

  it("account <hex of the golden Bundle> (child process) prints the documented JSON and exits 0", () => {
    const outcome = outcomes.bundleHex!
    expect(outcome.code).toBe(0)
    expect(outcome.stderr).toBe("")
    expect(outcome.stdout.endsWith("\n")).toBe(true)
    expect(outcome.stdout.trim().split("\n")).toHaveLength(1)
    expect(JSON.parse(outcome.stdout)).toEqual({ account: "Bundle", data: golden.bundleJson })
  })

  it("account <base64> decodes too", () => {
    const outcome = outcomes.userBase64!
    expect(outcome.code).toBe(0)
    const json = JSON.parse(outcome.stdout)
    expect(json.account).toBe("UserBundleAccount")
    expect(json.data).toMatchObject({
      owner: golden.builders.user,
      shares: "2000000000",
      netDeposits: "-5",
      feeOverrideFlags: 8,
      switchActive: false,
      referrer: golden.builders.referrer
    })
  })

  it("event <Program data: base64> prints the event", () => {
    const outcome = outcomes.event!
    expect(outcome.code).toBe(0)
    expect(JSON.parse(outcome.stdout)).toEqual({
      event: "DepositRequested",
      data: {
        user: golden.builders.user,
        amount: "100000000",
        timestamp: "1790000000",
        bundleAccountKey: golden.builders.bundle,
        toppingUp: false,
        grossAmount: "100000000",
        feeAmount: "0",
        netAmount: "100000000",
        assetMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
      }
    })
  })

  it("tx <base64> prints the decoded transaction", () => {
    const outcome = outcomes.tx!
    expect(outcome.code).toBe(0)
    const json = JSON.parse(outcome.stdout)
    expect(json).toMatchObject({
      version: 0,
      feePayer: golden.devnetDepositTransaction.feePayerAndOnlySigner,
      blockhash: golden.devnetDepositTransaction.blockhash,
      signatures: [null]
    })
    expect(json.instructions.map((ix: { decoded: unknown }) => ix.decoded)).toEqual([
      { name: "SetComputeUnitLimit", args: { units: 45699 } },
      { name: "request_deposit", args: { amount: "1000000" } }
    ])
    expect(json.instructions[1].accounts[0]).toEqual({ address: golden.devnetDepositTransaction.feePayerAndOnlySigner, isSigner: true, isWritable: true })
  })

  it("--help prints usage and exits 0", () => {
    expect(outcomes.help!.code).toBe(0)
    expect(outcomes.help!.stdout).toContain("usage: vault-gateway inspect")
  })

  for (const name of ["unknownDiscriminator", "notEncoded", "truncated", "badTx", "unknownKind", "missingData", "unknownOption"]) {
    it(`bad input (${name}) exits 2 with one line on stderr and nothing on stdout`, () => {
      const outcome = outcomes[name]!
      expect(outcome.code).toBe(2)
      expect(outcome.stdout).toBe("")
      expect(outcome.stderr.endsWith("\n")).toBe(true)
      expect(outcome.stderr.trimEnd().split("\n")).toHaveLength(1)
      expect(outcome.stderr).toMatch(/^vault-gateway inspect: \S/)
    })
  }

  it("names the problem", () => {
    expect(outcomes.notEncoded!.stderr).toContain("neither hex nor standard base64")
    expect(outcomes.unknownDiscriminator!.stderr).toContain("discriminator 0011223344556677")
    expect(outcomes.truncated!.stderr).toContain("data ends early")
  })

  it("--pretty indents the same JSON", async () => {
    const pretty = await inProcess("account", golden.accounts.OracleData.hex, "--pretty")
    expect(pretty.code).toBe(0)
    expect(pretty.stdout).toContain('\n  "account": "OracleData"')
    expect(JSON.parse(pretty.stdout)).toEqual(JSON.parse((await inProcess("account", golden.accounts.OracleData.hex)).stdout))
  })
})

describe("inspectToJson", () => {
  it("hex with 0x, and forced encodings", () => {
    const hex = golden.accounts.OracleData.hex
    const json = Either.getOrThrow(inspectToJson("account", `0x${hex}`)) as { account: string; data: Record<string, unknown> }
    expect(json.account).toBe("OracleData")
    expect(json.data).toMatchObject({ averageExternalEquity: "97500000000", lastUpdateTime: "1790000100" })
    // hex digits are base64 characters too: forced base64 reads other bytes
    expect(inspectToJson("account", hex, "base64")).toEqual(Either.left(expect.stringContaining("discriminator")))
    expect(Either.getOrThrow(inspectToJson("account", Buffer.from(hex, "hex").toString("base64"), "base64"))).toEqual(json)
    expect(Either.isLeft(inspectToJson("account", "zz", "hex"))).toBe(true)
    expect(Either.isLeft(inspectToJson("event", "not base64"))).toBe(true)
  })
})

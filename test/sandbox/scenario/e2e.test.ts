import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Base64EncodedBytes,
  type Instruction,
  type KeyPairSigner
} from "@solana/kit"
import { Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decodeBundle, decodeUserBundleAccount, type UserBundleAccount } from "../../../src/ntbundle/accounts.ts"
import { buildDeposit } from "../../../src/ntbundle/builders/index.ts"
import { eventsFromLogs } from "../../../src/ntbundle/events.ts"
import { setUserReferrerIx } from "../../../src/ntbundle/ix/user.ts"
import { findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import type { TransactionRecord } from "../../../src/sandbox/ledger/transactionStore.ts"
import { startScenarioSandbox, type ScenarioSandbox } from "../../../src/sandbox/scenario/start.ts"
import { collect, sleep } from "../support.ts"

const until = async (condition: () => boolean, ms = 5_000): Promise<void> => {
  const deadline = Date.now() + ms
  while (!condition() && Date.now() < deadline) await sleep(10)
}

// The acceptance path with kit clients over real sockets: a deposit built with src/ntbundle's
// builders, signed as a scenario wallet from sandbox_wallets, sent with sendTransaction; the keeper
// mints the shares; getProgramAccounts finds exactly the scenario's referred users.
const AUTOPILOT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address

let running: ScenarioSandbox
let rpc: ReturnType<typeof createSolanaRpc>

const sandboxCall = async (method: string, params: ReadonlyArray<unknown> = []): Promise<unknown> => {
  const response = await fetch(running.handle.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })
  const body = (await response.json()) as { result?: unknown; error?: unknown }
  if (body.error !== undefined) throw new Error(JSON.stringify(body.error))
  return body.result
}

const account = async (at: Address): Promise<Uint8Array | null> => {
  const { value } = await rpc.getAccountInfo(at, { encoding: "base64", commitment: "confirmed" }).send()
  return value === null ? null : new Uint8Array(Buffer.from(value.data[0], "base64"))
}

const position = async (owner: Address): Promise<UserBundleAccount | null> => {
  const data = await account(findUserBundlePda(running.scenario.chain.programId as Address, owner, AUTOPILOT)[0])
  return data === null ? null : Either.getOrThrow(decodeUserBundleAccount(data))
}

const send = async (signer: KeyPairSigner, instructions: ReadonlyArray<Instruction>): Promise<string> => {
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(signer, draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash(blockhash, draft),
    (draft) => appendTransactionMessageInstructions(instructions, draft)
  )
  const signed = await signTransactionMessageWithSigners(message)
  await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" }).send()
  return getSignatureFromTransaction(signed)
}

const programEvents = async (signature: string) => {
  const landed = await rpc.getTransaction(signature as never, { encoding: "json", maxSupportedTransactionVersion: 0, commitment: "confirmed" }).send()
  expect(landed?.meta?.err).toBeNull()
  return eventsFromLogs(landed!.meta!.logMessages!, running.scenario.chain.programId).map(({ event }) => event)
}

beforeAll(async () => {
  running = await startScenarioSandbox({
    port: 0,
    clock: "manual",
    seed: 21,
    users: 10,
    builders: 3,
    activity: 0,
    initialPositions: 0.9,
    vaultIds: [76, 60, 48],
    keeperIntervalSlots: 1,
    bulkCacheDirectory: false
  })
  rpc = createSolanaRpc(running.handle.rpcUrl)
})

afterAll(async () => {
  await running.close()
})

describe("a scenario wallet deposits through the sandbox with kit", () => {
  it("sends a kit-built deposit, sees it in getTransaction/getSignaturesForAddress, and its shares after the keeper runs", async () => {
    const wallets = (await sandboxCall("sandbox_wallets")) as Array<{ address: string; role: string; secretKey: string }>
    const programId = running.scenario.chain.programId
    let depositor: { address: string; secretKey: string } | undefined
    for (const wallet of wallets.filter((candidate) => candidate.role === "user")) {
      if ((await position(address(wallet.address))) === null) {
        depositor = wallet
        break
      }
    }
    expect(depositor).toBeDefined()
    const signer = await createKeyPairSignerFromBytes(new Uint8Array(getBase58Encoder().encode(depositor!.secretKey)))
    expect(signer.address).toBe(depositor!.address)

    const bundle = Either.getOrThrow(decodeBundle((await account(AUTOPILOT))!))
    const plan = buildDeposit({ vault: { program: programId as Address, bundleAddress: AUTOPILOT, bundle }, user: signer.address, userBundleAccount: null, amount: 250_000_000n })
    const signature = await send(signer, Either.getOrThrow(plan).instructions)

    const requested = (await programEvents(signature)).find((event) => event.name === "DepositRequested")
    expect(requested?.data).toMatchObject({ user: signer.address, grossAmount: 250_000_000n, bundleAccountKey: AUTOPILOT })
    const history = await rpc.getSignaturesForAddress(signer.address, { commitment: "confirmed" }).send()
    expect(history.map((entry) => entry.signature)).toContain(signature)
    expect((await position(signer.address))?.pendingDeposit).toBe(Either.getOrThrow(plan).netAmount)

    await sandboxCall("sandbox_step", [{ slots: 3 }])
    const after = await position(signer.address)
    expect(after?.pendingDeposit).toBe(0n)
    expect(after?.shares).toBeGreaterThan(0n)
    const positionAddress = findUserBundlePda(programId as Address, signer.address, AUTOPILOT)[0]
    const touched = await rpc.getSignaturesForAddress(positionAddress, { commitment: "confirmed" }).send()
    const allocated = (await Promise.all(touched.map((entry) => programEvents(entry.signature)))).flat().find((event) => event.name === "Allocated")
    expect(allocated?.data).toMatchObject({ userSharesAfter: after!.shares, netAmount: Either.getOrThrow(plan).netAmount })
    expect(checkInvariants(running.scenario.chain.ledger, programId)).toEqual([])
  })

  it("refuses a second referrer with the program's error, changing nothing", async () => {
    const bound = running.scenario.referredPositions()[0]!
    const wallets = (await sandboxCall("sandbox_wallets")) as Array<{ address: string; secretKey: string }>
    const wallet = wallets.find((candidate) => candidate.address === bound.owner)!
    const signer = await createKeyPairSignerFromBytes(new Uint8Array(getBase58Encoder().encode(wallet.secretKey)))
    const vault = running.scenario.index.vaultOf(bound.address)! as Address
    const other = running.scenario.buildersByVault.get(vault)!.find((builder) => builder.keypair.address !== bound.referrer) ?? running.scenario.buildersByVault.get(vault)![0]!
    const before = await account(bound.address as Address)
    const failure = await send(signer, [setUserReferrerIx({ program: running.scenario.chain.programId as Address, bundle: vault, user: signer.address, referrer: other.keypair.address as Address })]).then(
      () => undefined,
      (error: unknown) => error
    )
    expect(isSolanaError(failure)).toBe(true)
    const logs = (failure as { context: { logs: ReadonlyArray<string> } }).context.logs
    expect(logs).toContain("Program log: AnchorError occurred. Error Code: ReferralAlreadySet. Error Number: 6086. Error Message: Referral already set.")
    expect(logs.at(-1)).toBe(`Program ${running.scenario.chain.programId} failed: custom program error: 0x17c6`)
    expect(await account(bound.address as Address)).toEqual(before)
  })

  it("finds exactly the scenario's referred users with getProgramAccounts (dataSize 440, memcmp referrer @263)", async () => {
    const programId = address(running.scenario.chain.programId)
    const truth = running.scenario.referredPositions()
    expect(truth.length).toBeGreaterThan(0)
    for (const builder of running.scenario.people.builders) {
      const found = await rpc
        .getProgramAccounts(programId, {
          encoding: "base64",
          commitment: "confirmed",
          filters: [{ dataSize: 440n }, { memcmp: { offset: 263n, bytes: builder.keypair.address as unknown as Base64EncodedBytes, encoding: "base58" } }]
        } as never)
        .send()
      const list = found as unknown as Array<{ pubkey: string; account: { data: [string, string] } }>
      const expected = truth.filter((entry) => entry.referrer === builder.keypair.address).map((entry) => entry.address)
      expect(list.map((entry) => entry.pubkey).sort()).toEqual(expected.sort())
      for (const entry of list) {
        expect(Either.getOrThrow(decodeUserBundleAccount(new Uint8Array(Buffer.from(entry.account.data[0], "base64")))).referrer).toBe(builder.keypair.address)
      }
    }
  })
})

describe("subscriptions during a keeper step", () => {
  it("programSubscribe and logsSubscribe deliver every change and every event of the step, with its slot", async () => {
    const programId = address(running.scenario.chain.programId)
    const subscriptions = createSolanaRpcSubscriptions(running.handle.wsUrl)
    const abort = new AbortController()
    try {
      const changes = collect(await subscriptions.programNotifications(programId, { commitment: "confirmed", encoding: "base64" }).subscribe({ abortSignal: abort.signal }))
      const logs = collect(await subscriptions.logsNotifications({ mentions: [programId] }, { commitment: "confirmed" }).subscribe({ abortSignal: abort.signal }))
      const user = running.scenario.people.users.find((candidate) => candidate.vaults.some((vault) => vault.config.address === AUTOPILOT)) ?? running.scenario.people.users[0]!
      const vault = running.scenario.actions.vault(AUTOPILOT)!
      const requested = running.scenario.actions.deposit(user.keypair, vault, 50_000_000n)
      expect(requested?.kind).toBe("landed")

      const landed: Array<TransactionRecord> = []
      const stop = running.handle.ledger.subscribe((event) => {
        if (event.kind === "accounts" && event.transaction !== undefined) landed.push(event.transaction)
      })
      const expectedWrites: Array<string> = []
      const stopWrites = running.handle.ledger.subscribe((event) => {
        if (event.kind !== "accounts" || event.transaction === undefined) return
        for (const write of event.writes) if (write.record.owner === programId) expectedWrites.push(`${write.address}@${event.slot}:${Buffer.from(write.record.data).toString("base64")}`)
      })
      await sandboxCall("sandbox_step", [{ slots: 2 }])
      stop()
      stopWrites()
      running.handle.flushNotifications()

      const keeperSteps = landed.filter((record) => record.accountKeys[0] === running.scenario.keeper.address)
      const keeperEvents = keeperSteps.flatMap((record) => eventsFromLogs(record.logs, programId).map(({ event }) => event.name))
      expect(keeperEvents).toEqual(expect.arrayContaining(["OracleUpdated", "NettingCompleted", "Allocated"]))
      const received = () => changes.items.map((item) => `${item.value.pubkey}@${item.context.slot}:${item.value.account.data[0]}`)
      const signatures = () => new Set(logs.items.map((item) => item.value.signature as string))
      await until(() => expectedWrites.every((write) => received().includes(write)) && landed.every((record) => signatures().has(record.signature)))
      expect(received()).toEqual(expect.arrayContaining(expectedWrites))
      for (const record of landed) {
        const notification = logs.items.find((item) => item.value.signature === record.signature)
        expect(notification?.context.slot).toBe(BigInt(record.slot))
        expect(eventsFromLogs(notification!.value.logs, programId)).toEqual(eventsFromLogs(record.logs, programId))
      }
    } finally {
      abort.abort()
    }
  })
})

import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { address, signature as toSignature } from "@solana/kit"
import { deterministicKeypair } from "../../src/sandbox/crypto/keypair.ts"
import { encodeBase58 } from "../../src/ntbundle/base58.ts"
import { compileLegacyMessage, signTransaction } from "../../src/sandbox/runtime/compile.ts"
import {
  collect,
  COUNTER_DISCRIMINATOR,
  COUNTER_PROGRAM_ID,
  counterInstruction,
  createCounter,
  fundedKeypair,
  sleep,
  startTestSandbox,
  type TestSandbox
} from "./support.ts"

let test: TestSandbox
let aborts: AbortController[] = []

beforeAll(async () => {
  test = await startTestSandbox()
})
afterEach(() => {
  for (const controller of aborts) controller.abort()
  aborts = []
})
afterAll(async () => {
  await test.sandbox.close()
})

const signal = (): AbortSignal => {
  const controller = new AbortController()
  aborts.push(controller)
  return controller.signal
}

const counterValue = (base64: string): bigint => Buffer.from(base64, "base64").readBigUInt64LE(8)

describe("PubSub on the RPC port + 1, with kit's subscription client", () => {
  it("programSubscribe delivers matching writes with the transaction's slot; filters exclude others", async () => {
    const { subscriptions, sandbox } = test
    const payer = fundedKeypair(sandbox, "pubsub-payer")
    const counter = createCounter(sandbox, "pubsub-counter")
    const matching = collect(
      await subscriptions
        .programNotifications(address(COUNTER_PROGRAM_ID), {
          commitment: "confirmed",
          encoding: "base64",
          filters: [{ dataSize: 16n }, { memcmp: { offset: 0n, bytes: encodeBase58(COUNTER_DISCRIMINATOR) as never, encoding: "base58" } }]
        })
        .subscribe({ abortSignal: signal() })
    )
    const excluded = collect(
      await subscriptions
        .programNotifications(address(COUNTER_PROGRAM_ID), { commitment: "confirmed", encoding: "base64", filters: [{ dataSize: 17n }] })
        .subscribe({ abortSignal: signal() })
    )
    sandbox.step(2)
    const outcome = sandbox.submit({ feePayer: payer, instructions: [counterInstruction(counter, 5)] })
    expect(outcome.kind).toBe("landed")
    const landedSlot = sandbox.ledger.slot
    expect(await matching.waitFor(1)).toBe(true)
    const notification = matching.items[0]!
    expect(notification.context.slot).toBe(BigInt(landedSlot))
    expect(notification.value.pubkey).toBe(counter)
    expect(notification.value.account.owner).toBe(COUNTER_PROGRAM_ID)
    expect(counterValue(notification.value.account.data[0])).toBe(5n)
    await sleep(100)
    expect(excluded.items).toHaveLength(0)
  })

  it("accountSubscribe and logsSubscribe carry the transaction's slot, logs and Program data", async () => {
    const { subscriptions, sandbox } = test
    const payer = fundedKeypair(sandbox, "logs-payer")
    const counter = createCounter(sandbox, "logs-counter")
    const accountUpdates = collect(await subscriptions.accountNotifications(address(counter), { commitment: "confirmed", encoding: "base64" }).subscribe({ abortSignal: signal() }))
    const mentions = collect(await subscriptions.logsNotifications({ mentions: [address(COUNTER_PROGRAM_ID)] }, { commitment: "confirmed" }).subscribe({ abortSignal: signal() }))
    const all = collect(await subscriptions.logsNotifications("all", { commitment: "confirmed" }).subscribe({ abortSignal: signal() }))
    const unrelated = collect(
      await subscriptions.logsNotifications({ mentions: [address(deterministicKeypair("test", "nobody").address)] }, { commitment: "confirmed" }).subscribe({ abortSignal: signal() })
    )
    sandbox.step(1)
    const outcome = sandbox.submit({ feePayer: payer, instructions: [counterInstruction(counter, 3)] })
    if (outcome.kind !== "landed") throw new Error(`not landed: ${outcome.kind}`)
    const slot = BigInt(sandbox.ledger.slot)

    expect(await accountUpdates.waitFor(1)).toBe(true)
    expect(accountUpdates.items[0]!.context.slot).toBe(slot)
    expect(counterValue(accountUpdates.items[0]!.value.data[0])).toBe(3n)

    expect(await mentions.waitFor(1)).toBe(true)
    const logs = mentions.items[0]!
    expect(logs.context.slot).toBe(slot)
    expect(logs.value.signature).toBe(outcome.signature)
    expect(logs.value.err).toBeNull()
    const value = Buffer.alloc(8)
    value.writeBigUInt64LE(3n)
    expect(logs.value.logs).toEqual([
      `Program ${COUNTER_PROGRAM_ID} invoke [1]`,
      "Program log: counter is 3",
      `Program data: ${Buffer.from(COUNTER_DISCRIMINATOR).toString("base64")} ${value.toString("base64")}`,
      `Program ${COUNTER_PROGRAM_ID} consumed 1000 of 200000 compute units`,
      `Program ${COUNTER_PROGRAM_ID} success`
    ])
    expect(await all.waitFor(1)).toBe(true)
    expect(all.items.map((item) => item.value.signature)).toContain(outcome.signature)
    await sleep(100)
    expect(unrelated.items).toHaveLength(0)
  })

  it("slotSubscribe announces each new slot with its parent and root", async () => {
    const { subscriptions, sandbox } = test
    const slots = collect(await subscriptions.slotNotifications().subscribe({ abortSignal: signal() }))
    await sleep(20)
    const start = sandbox.ledger.slot
    sandbox.step(3)
    expect(await slots.waitFor(3)).toBe(true)
    expect(slots.items.map((item) => item.slot)).toEqual([1n, 2n, 3n].map((offset) => BigInt(start) + offset))
    expect(slots.items[0]!.parent).toBe(BigInt(start))
    expect(slots.items[2]!.root).toBe(BigInt(start + 3 - 32))
  })

  it("signatureSubscribe answers once, for a transaction before or after it lands", async () => {
    const { subscriptions, sandbox } = test
    const payer = fundedKeypair(sandbox, "signature-payer")
    const counter = createCounter(sandbox, "signature-counter")
    sandbox.step(1)
    const first = sandbox.submit({ feePayer: payer, instructions: [counterInstruction(counter, 1)] })
    const already = collect(await subscriptions.signatureNotifications(toSignature(first.signature), { commitment: "confirmed" }).subscribe({ abortSignal: signal() }))
    expect(await already.waitFor(1)).toBe(true)
    expect(already.items[0]!.value.err).toBeNull()
    expect(already.items[0]!.context.slot).toBe(BigInt(sandbox.ledger.slot))

    sandbox.step(1)
    // Subscribed before it lands: a failed transaction that lands (no preflight) is announced with its error.
    const blockhash = sandbox.ledger.clock.blockhash()
    const message = compileLegacyMessage(payer.address, [counterInstruction(counter, 0x44, 1)], blockhash)
    const wire = signTransaction(message, [payer])
    const signature = encodeBase58(wire.subarray(1, 65))
    const later = collect(await subscriptions.signatureNotifications(toSignature(signature), { commitment: "confirmed" }).subscribe({ abortSignal: signal() }))
    await sleep(50)
    expect(later.items).toHaveLength(0)
    const outcome = sandbox.chain.processor.send(wire, { skipPreflight: true })
    expect(outcome.kind).toBe("landed")
    expect(await later.waitFor(1)).toBe(true)
    expect(later.items[0]!.value.err).toEqual({ InstructionError: [0n, { Custom: 0x44n }] })
    expect(later.items[0]!.context.slot).toBe(BigInt(sandbox.ledger.slot))
    await sleep(50)
    expect(later.items).toHaveLength(1)
  })

  it("holds finalized notifications until their slot is finalized", async () => {
    const { subscriptions, sandbox } = test
    const payer = fundedKeypair(sandbox, "finalized-payer")
    const counter = createCounter(sandbox, "finalized-counter")
    const finalized = collect(await subscriptions.accountNotifications(address(counter), { commitment: "finalized", encoding: "base64" }).subscribe({ abortSignal: signal() }))
    sandbox.step(1)
    sandbox.submit({ feePayer: payer, instructions: [counterInstruction(counter, 9)] })
    const landedSlot = sandbox.ledger.slot
    await sleep(100)
    expect(finalized.items).toHaveLength(0)
    sandbox.step(31)
    await sleep(50)
    expect(finalized.items).toHaveLength(0)
    sandbox.step(1)
    expect(await finalized.waitFor(1)).toBe(true)
    expect(finalized.items[0]!.context.slot).toBe(BigInt(landedSlot))
  })

  it("unsubscribes when kit aborts", async () => {
    const { subscriptions, sandbox } = test
    const controller = new AbortController()
    await subscriptions.slotNotifications().subscribe({ abortSignal: controller.signal })
    await sleep(50)
    const before = sandbox.subscriptionCount()
    expect(before).toBeGreaterThan(0)
    controller.abort()
    const deadline = Date.now() + 2_000
    while (sandbox.subscriptionCount() >= before && Date.now() < deadline) await sleep(10)
    expect(sandbox.subscriptionCount()).toBeLessThan(before)
  })
})

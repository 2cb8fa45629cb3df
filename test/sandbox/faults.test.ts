import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { isSolanaError, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR } from "@solana/kit"
import { collect, rpcCall, sleep, startTestSandbox, type TestSandbox } from "./support.ts"

let test: TestSandbox
let aborts: AbortController[] = []

beforeAll(async () => {
  test = await startTestSandbox()
})
afterEach(async () => {
  for (const controller of aborts) controller.abort()
  aborts = []
  await rpcCall(test.sandbox.rpcUrl, "sandbox_fault", [{ kind: "clear" }])
})
afterAll(async () => {
  await test.sandbox.close()
})

const fault = async (spec: Record<string, unknown>) => {
  const answer = await rpcCall(test.sandbox.rpcUrl, "sandbox_fault", [spec])
  expect(answer.error).toBeUndefined()
  return answer.result
}

const slotStream = async () => {
  const controller = new AbortController()
  aborts.push(controller)
  const slots = collect(await test.subscriptions.slotNotifications().subscribe({ abortSignal: controller.signal }))
  await sleep(20)
  return slots
}

describe("sandbox_fault, observed through kit clients", () => {
  it("closeSockets: every PubSub socket drops and kit's subscription fails", async () => {
    const slots = await slotStream()
    expect(test.sandbox.subscriptionCount()).toBeGreaterThan(0)
    await fault({ kind: "closeSockets" })
    const deadline = Date.now() + 2_000
    while (slots.error() === undefined && Date.now() < deadline) await sleep(10)
    expect(slots.error()).toBeDefined()
    expect(test.sandbox.subscriptionCount()).toBe(0)
    // New connections work again.
    const again = await slotStream()
    test.sandbox.step(1)
    expect(await again.waitFor(1)).toBe(true)
  })

  it("dropNotifications: a fraction of notifications never arrives", async () => {
    const slots = await slotStream()
    await fault({ kind: "dropNotifications", fraction: 1 })
    test.sandbox.step(3)
    await sleep(150)
    expect(slots.items).toHaveLength(0)
    await fault({ kind: "dropNotifications", fraction: 0.5 })
    test.sandbox.step(200)
    await sleep(300)
    expect(slots.items.length).toBeGreaterThan(60)
    expect(slots.items.length).toBeLessThan(140)
    await fault({ kind: "clear" })
    const before = slots.items.length
    test.sandbox.step(2)
    expect(await slots.waitFor(before + 2)).toBe(true)
  })

  it("delayNotifications: notifications arrive late and in order", async () => {
    const slots = await slotStream()
    await fault({ kind: "delayNotifications", ms: 300 })
    const start = Date.now()
    const first = test.sandbox.ledger.slot + 1
    test.sandbox.step(3)
    await sleep(150)
    expect(slots.items).toHaveLength(0)
    expect(await slots.waitFor(3)).toBe(true)
    expect(Date.now() - start).toBeGreaterThanOrEqual(280)
    expect(slots.items.map((item) => item.slot)).toEqual([first, first + 1, first + 2].map(BigInt))
  })

  it("stallNotifications: held while slots advance, released in order when cleared", async () => {
    const slots = await slotStream()
    await fault({ kind: "stallNotifications" })
    const first = test.sandbox.ledger.slot + 1
    test.sandbox.step(5)
    await sleep(150)
    expect(slots.items).toHaveLength(0)
    await fault({ kind: "clear" })
    expect(await slots.waitFor(5)).toBe(true)
    expect(slots.items.map((item) => item.slot)).toEqual([0, 1, 2, 3, 4].map((offset) => BigInt(first + offset)))
  })

  it("stallNotifications with onClear drop: what was held is lost", async () => {
    const slots = await slotStream()
    await fault({ kind: "stallNotifications", onClear: "drop" })
    test.sandbox.step(3)
    await sleep(100)
    await fault({ kind: "clear" })
    await sleep(100)
    expect(slots.items).toHaveLength(0)
    test.sandbox.step(1)
    expect(await slots.waitFor(1)).toBe(true)
    expect(slots.items[0]!.slot).toBe(BigInt(test.sandbox.ledger.slot))
  })

  it("http429: HTTP calls answered 429 with Retry-After; sandbox_* calls still pass", async () => {
    const state = await fault({ kind: "http429", fraction: 1, retryAfterSeconds: 7 })
    expect(state).toMatchObject({ http429: { fraction: 1, retryAfterSeconds: 7 } })
    const failure = await test.rpc
      .getSlot()
      .send()
      .catch((error: unknown) => error)
    expect(isSolanaError(failure, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)).toBe(true)
    if (!isSolanaError(failure, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) return
    expect(failure.context.statusCode).toBe(429)
    expect((failure.context.headers as Headers).get("retry-after")).toBe("7")
    const info = await rpcCall(test.sandbox.rpcUrl, "sandbox_info")
    expect(info.result).toMatchObject({ slot: test.sandbox.ledger.slot })
    await fault({ kind: "clear" })
    expect(await test.rpc.getSlot({ commitment: "confirmed" }).send()).toBe(BigInt(test.sandbox.ledger.slot))
  })

  it("rejects unknown fault kinds", async () => {
    const answer = await rpcCall(test.sandbox.rpcUrl, "sandbox_fault", [{ kind: "meteor" }])
    expect(answer.error?.code).toBe(-32602)
  })
})

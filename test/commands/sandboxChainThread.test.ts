import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Fiber, Logger } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { sandboxChainInWorker, type SandboxChainWorkerData } from "../../src/commands/sandboxChainThread.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"
import { rpcCall } from "../sandbox/support.ts"

const dirs: Array<string> = []
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "vg-sandbox-thread-"))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const chainData = (overrides: Partial<SandboxChainWorkerData["options"]> = {}): SandboxChainWorkerData => ({
  options: {
    port: 0,
    seed: 7,
    slotMs: 400,
    programId: DEFAULT_NTBUNDLE_PROGRAM_ID,
    users: 6,
    builders: 1,
    activity: 0,
    historyDays: 1,
    historyStepSeconds: 4 * 3_600,
    persistDir: freshDir(),
    ...overrides
  }
})

/** Runs `effect` with a logger that keeps each message. */
const withLogs = <A, E>(effect: Effect.Effect<A, E>, logs: Array<string>) =>
  effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logs.push([message].flat().join(" "))))))

describe("serve's sandbox chain on a thread of its own", () => {
  it("answers JSON-RPC over loopback once up, and closing the scope ends the thread and its sockets", async () => {
    const url = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const started = yield* sandboxChainInWorker(chainData())
          expect(started.resumed).toBe(false)
          const slot = yield* Effect.promise(() => rpcCall(started.rpcUrl, "getSlot"))
          expect(slot.result).toBeGreaterThan(0)
          const health = yield* Effect.promise(() => rpcCall(started.rpcUrl, "getHealth"))
          expect(health.result).toBe("ok")
          return started.rpcUrl
        })
      )
    )
    await expect(rpcCall(url, "getSlot")).rejects.toThrow()
  }, 60_000)

  it("resumes the chain kept in its directory, and logs here why it starts a new one when the settings differ", async () => {
    const data = chainData()
    const logs: Array<string> = []
    const open = (options: SandboxChainWorkerData["options"]) =>
      withLogs(Effect.scoped(Effect.map(sandboxChainInWorker({ options }), (started) => started.resumed)), logs)
    expect(await Effect.runPromise(open(data.options))).toBe(false)
    expect(await Effect.runPromise(open(data.options))).toBe(true)
    expect(logs.some((line) => line.includes("made with other settings"))).toBe(false)
    expect(await Effect.runPromise(open({ ...data.options, users: 7 }))).toBe(false)
    expect(logs.filter((line) => line.includes(`the sandbox chain in ${data.options.persistDir} was made with other settings`))).toHaveLength(1)
  }, 90_000)

  it("fails with SandboxStartError when its RPC port is taken, and the chain holding it keeps answering", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const first = yield* sandboxChainInWorker(chainData())
          const port = Number(new URL(first.rpcUrl).port)
          const error = yield* Effect.flip(Effect.scoped(sandboxChainInWorker(chainData({ port }))))
          expect(error._tag).toBe("SandboxStartError")
          expect(error.message).toMatch(new RegExp(`${port}`))
          const slot = yield* Effect.promise(() => rpcCall(first.rpcUrl, "getSlot"))
          expect(slot.result).toBeGreaterThan(0)
        })
      )
    )
  }, 60_000)

  it("stops a start that is still generating its history promptly, without waiting for the thread's time-out", async () => {
    const fiber = Effect.runFork(Effect.scoped(sandboxChainInWorker(chainData({ users: 200, builders: 8, historyDays: 30 }))))
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(fiber.unsafePoll()).toBeNull()
    const began = performance.now()
    await Effect.runPromise(Fiber.interrupt(fiber))
    // the thread ends itself between two history steps; a thread that did not would be terminated after 10 s
    expect(performance.now() - began).toBeLessThan(3_000)
  }, 60_000)
})

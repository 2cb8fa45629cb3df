import type { Worker } from "node:worker_threads"
import { Effect, Runtime } from "effect"
import { SandboxStartError } from "../sandbox/layer.ts"
import { startBuiltWorker } from "../tsWorker.ts"

/** What `serve` asks of its sandbox chain: the scenario's knobs and where to keep it. */
export interface SandboxChainWorkerData {
  readonly options: {
    readonly port: number
    readonly seed: number
    readonly slotMs: number
    readonly programId: string
    readonly users: number
    readonly builders: number
    readonly activity: number
    readonly historyDays: number
    readonly historyStepSeconds: number
    readonly persistDir: string
  }
}

/** The worker's messages: warnings to log, then once ready or failed; the main thread's only message is "close". */
export type SandboxChainWorkerMessage =
  | { readonly type: "warning"; readonly message: string }
  | { readonly type: "ready"; readonly rpcUrl: string; readonly wsUrl: string; readonly resumed: boolean }
  | { readonly type: "failed"; readonly message: string }

type Ready = Extract<SandboxChainWorkerMessage, { type: "ready" }>

const STOP_TIMEOUT_MS = 10_000
/**
 * The thread's young generation (V8's default lets it grow to 48 MB): a first start's peak RSS was
 * 467 MB with 16 against 476-506 MB with the default, and the history generated as fast.
 */
const YOUNG_GENERATION_MB = 16

/**
 * Asks the worker to close the sandbox (its sockets, its journal) and waits for the thread to end.
 * Terminating it is the last resort only: Node aborts the process when a thread ends with uWS's
 * sockets still open, so the thread closes them itself.
 */
const stop = ({ worker, exited }: { readonly worker: Worker; readonly exited: Promise<void> }) =>
  Effect.promise(async () => {
    worker.postMessage("close")
    const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS)
    await exited
    clearTimeout(timer)
  })

/**
 * `serve`'s sandbox chain on a thread of its own (scoped): it generates its history and then
 * answers the gateway's backfill on the second core while this thread starts the database and
 * then decodes and stores what it fetched. The gateway reaches it over loopback as it would reach
 * any RPC node. Succeeds with the endpoints once the chain is up; a worker that dies later is
 * logged, and the gateway sees its node go away.
 */
export const sandboxChainInWorker = (workerData: SandboxChainWorkerData) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const { worker } = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const worker = startBuiltWorker(new URL("./sandboxChainWorker.ts", import.meta.url), {
          workerData,
          resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB }
        })
        const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()))
        const log = Runtime.runFork(runtime)
        worker.on("error", (error) => log(Effect.logError(`sandbox chain thread failed: ${error.message}`)))
        worker.on("message", (message: SandboxChainWorkerMessage) => {
          if (message.type === "warning") log(Effect.logWarning(message.message))
        })
        return { worker, exited }
      }),
      stop
    )
    return yield* Effect.async<Ready, SandboxStartError>((resume) => {
      const detach = () => worker.off("message", onMessage).off("error", onError).off("exit", onExit)
      const settle = (outcome: Effect.Effect<Ready, SandboxStartError>) => {
        detach()
        resume(outcome)
      }
      const failWith = (message: string) => settle(Effect.fail(new SandboxStartError({ message })))
      const onMessage = (message: SandboxChainWorkerMessage) => {
        if (message.type === "ready") settle(Effect.succeed(message))
        else if (message.type === "failed") failWith(message.message)
      }
      const onError = (error: Error) => failWith(error.message)
      const onExit = (code: number) => failWith(`the sandbox chain's thread exited (code ${code}) before the chain was up`)
      worker.on("message", onMessage).on("error", onError).on("exit", onExit)
      return Effect.sync(detach)
    })
  })

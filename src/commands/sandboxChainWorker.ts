import { parentPort, workerData } from "node:worker_threads"
import { type OpenedSandboxChain, openSandboxChain } from "./sandboxChainOpen.ts"
import type { SandboxChainWorkerData, SandboxChainWorkerMessage } from "./sandboxChainThread.ts"

// The sandbox chain's thread (see sandboxChainThread.ts): opens the sandbox chain and keeps it until
// the main thread says "close", which also stops a start still generating its history.
const { options } = workerData as SandboxChainWorkerData
const port = parentPort!
const post = (message: SandboxChainWorkerMessage) => port.postMessage(message)
const closing = new AbortController()
let opened: OpenedSandboxChain | undefined

const close = async () => {
  await opened?.close()
  port.close()
}

port.on("message", () => {
  closing.abort()
  if (opened !== undefined) void close()
})

openSandboxChain(options, { signal: closing.signal, warn: (message) => post({ type: "warning", message }) }).then(
  (chain) => {
    opened = chain
    if (closing.signal.aborted) return void close()
    post({ type: "ready", rpcUrl: chain.handle.rpcUrl, wsUrl: chain.handle.wsUrl, resumed: chain.resumed })
  },
  (error: unknown) => {
    if (!closing.signal.aborted) post({ type: "failed", message: error instanceof Error ? error.message : String(error) })
    port.close()
  }
)

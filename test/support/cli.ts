import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

export const CLI = fileURLToPath(new URL("../../bin/vault-gateway.js", import.meta.url))

export interface RunningCli {
  readonly child: ChildProcess
  /** Everything written to stdout and stderr so far. */
  readonly output: () => string
  readonly waitForOutput: (pattern: RegExp, timeoutMs: number) => Promise<RegExpMatchArray>
  readonly exited: Promise<number | null>
}

/** Starts `vault-gateway <args>` as a child process with extra environment variables. */
export const startCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}): RunningCli => {
  const child = spawn(process.execPath, [CLI, ...args], {
    // METRICS_PORT=0: parallel tests never race for the default metrics port
    env: { METRICS_PORT: "0", ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const listeners = new Set<() => void>()
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8")
    for (const listener of listeners) listener()
  }
  child.stdout!.on("data", append)
  child.stderr!.on("data", append)
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const waitForOutput = (pattern: RegExp, timeoutMs: number) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = output.match(pattern)
        if (match === null) return
        cleanup()
        resolve(match)
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(`no ${pattern} in ${timeoutMs} ms; output:\n${output}`))
      }, timeoutMs)
      const cleanup = () => {
        clearTimeout(timer)
        listeners.delete(check)
      }
      listeners.add(check)
      void exited.then((code) => {
        if (!listeners.has(check)) return
        cleanup()
        reject(new Error(`exited with ${code} before printing ${pattern}; output:\n${output}`))
      })
      check()
    })
  return { child, output: () => output, waitForOutput, exited }
}

/** Runs the CLI to completion. */
export const runCli = async (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const running = startCli(args, env)
  const code = await running.exited
  return { code, output: running.output() }
}

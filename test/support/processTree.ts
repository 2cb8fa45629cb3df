import { type ChildProcess, spawn } from "node:child_process"
import fs from "node:fs"
import net from "node:net"
import path from "node:path"
import { fileURLToPath } from "node:url"

export const CLI = fileURLToPath(new URL("../../bin/vault-gateway.js", import.meta.url))

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url))

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const parentOf = (pid: number): number | null => {
  try {
    // pid (comm) state ppid ...; comm may contain spaces, so read after the last ")"
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return null
  }
}

/** Every live descendant of `root` (children, grandchildren, ...), from /proc. */
export const descendants = (root: number): Array<number> => {
  const children = new Map<number, Array<number>>()
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    const parent = parentOf(pid)
    if (parent === null) continue
    children.set(parent, [...(children.get(parent) ?? []), pid])
  }
  const found: Array<number> = []
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child)
      walk(child)
    }
  }
  walk(root)
  return found
}

export const postmasterPid = (dataDir: string): number | undefined => {
  const file = path.join(dataDir, "postgres", "postmaster.pid")
  return fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8").split("\n")[0]) : undefined
}

export const portAnswers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

export interface RunningProcess {
  readonly child: ChildProcess
  readonly output: () => string
  readonly waitForOutput: (pattern: RegExp, timeoutMs: number) => Promise<RegExpMatchArray>
  readonly exited: Promise<number | null>
}

/**
 * Starts `command args` in the repository with `env` over this process's environment (`undefined`
 * unsets), capturing its output. `exited` resolves on "close" (the process ended and its output,
 * also what its children wrote, has been read), or with `endsOn: "exit"` as soon as it ends, for a
 * process whose children may outlive it holding the pipes (a server killed beside its database).
 */
export const startProcess = (
  command: string,
  args: ReadonlyArray<string>,
  env: Record<string, string | undefined>,
  endsOn: "close" | "exit" = "close"
): RunningProcess => {
  const merged: Record<string, string | undefined> = { ...process.env, ...env }
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name]
  const child = spawn(command, args, { cwd: REPO_ROOT, env: merged, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const listeners = new Set<() => void>()
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8")
    for (const listener of listeners) listener()
  }
  child.stdout!.on("data", append)
  child.stderr!.on("data", append)
  const exited = new Promise<number | null>((resolve) => child.once(endsOn, (code: number | null) => resolve(code)))
  const waitForOutput = (pattern: RegExp, timeoutMs: number) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      let done = false
      const check = () => {
        const match = output.match(pattern)
        if (match === null || done) return
        finish()
        resolve(match)
      }
      const timer = setTimeout(() => {
        finish()
        reject(new Error(`no ${pattern} in ${timeoutMs} ms; output:\n${output}`))
      }, timeoutMs)
      const finish = () => {
        done = true
        clearTimeout(timer)
        listeners.delete(check)
      }
      listeners.add(check)
      void exited.then((code) => {
        if (done) return
        finish()
        reject(new Error(`exited with ${code} before printing ${pattern}; output:\n${output}`))
      })
      check()
    })
  return { child, output: () => output, waitForOutput, exited }
}

/** Waits until `pids` have all ended, up to `timeoutMs`; returns those still alive. */
export const waitForGone = async (pids: ReadonlyArray<number>, timeoutMs: number): Promise<Array<number>> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const alive = pids.filter(isAlive)
    if (alive.length === 0 || Date.now() >= deadline) return alive
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Last resort for a failed test: SIGKILL whatever is left of a tree this test started. */
export const killAll = (pids: ReadonlyArray<number>): void => {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // already gone
    }
  }
}

import { readFileSync } from "node:fs"

/** Busy and total CPU time of the whole machine so far (jiffies), or null without /proc/stat. */
const cpuTimes = (): { readonly busy: number; readonly total: number } | null => {
  try {
    const fields = readFileSync("/proc/stat", "latin1").split("\n", 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number)
    const total = fields.reduce((sum, value) => sum + value, 0)
    // idle and iowait are the 4th and 5th fields
    return { busy: total - fields[3]! - fields[4]!, total }
  } catch {
    return null
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits until the machine is quiet: two windows in a row with under `busyShare` of its CPU busy,
 * or `maxMs` at most. What a benchmark left running a moment after it exited (a server's shutdown,
 * the embedded PostgreSQL stopping, sockets closing) otherwise lands in the next one's figures.
 * Resolves with the time waited; without /proc/stat (not Linux) it does not wait.
 */
export const settle = async (options: { readonly busyShare?: number; readonly windowMs?: number; readonly maxMs?: number } = {}) => {
  const busyShare = options.busyShare ?? 0.15
  const windowMs = options.windowMs ?? 500
  const maxMs = options.maxMs ?? 15_000
  const started = performance.now()
  let previous = cpuTimes()
  if (previous === null) return { waitedMs: 0, settled: true }
  let quiet = 0
  while (performance.now() - started < maxMs) {
    await sleep(windowMs)
    const now = cpuTimes()!
    const share = (now.busy - previous.busy) / Math.max(1, now.total - previous.total)
    previous = now
    quiet = share < busyShare ? quiet + 1 : 0
    if (quiet >= 2) return { waitedMs: performance.now() - started, settled: true }
  }
  return { waitedMs: performance.now() - started, settled: false }
}

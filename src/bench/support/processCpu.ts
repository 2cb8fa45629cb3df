import { readFileSync } from "node:fs"

const CLOCK_TICKS_PER_SECOND = 100

/**
 * CPU seconds a process has used so far (user + system, from /proc; Linux). A benchmark server's
 * CPU per request is a steadier figure than requests per second when other processes share the
 * cores: the ratio of two routes' CPU per request is the ratio of their req/s on an idle machine.
 */
export const cpuSecondsOf = (pid: number): number => ownCpuSeconds(pid)

/**
 * CPU seconds a process's main thread has used so far: a Node process's JavaScript runs there, while
 * V8's garbage-collection helpers, libuv's pool and worker threads are the other threads.
 */
export const mainThreadCpuSecondsOf = (pid: number): number => ownCpuSeconds(`${pid}/task/${pid}`)

/** utime + stime of /proc/<path>/stat: a process (all its threads) or one of its threads. */
const ownCpuSeconds = (path: number | string): number => {
  const fields = statFields(path)
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND
}

/** /proc/<path>/stat after "pid (comm) ": the state (field 3) is at 0, utime and stime (14, 15) at 11 and 12. */
const statFields = (path: number | string): Array<string> => readFileSync(`/proc/${path}/stat`, "latin1").replace(/^.*\) /, "").split(" ")

/** A process's live children (none once it has ended). */
export const childrenOf = (pid: number): Array<number> => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "latin1").split(" ").filter((s) => s !== "").map(Number)
  } catch {
    return []
  }
}

/**
 * CPU seconds a process and its children have used so far: its own, what its ended children used
 * (cutime and cstime, fields 16 and 17, at 13 and 14) and what its live children have. For a
 * PostgreSQL server (the postmaster's pid): each backend serves one connection, and a pool opens
 * and closes connections as it likes.
 */
export const cpuSecondsWithChildren = (pid: number): number => {
  const fields = statFields(pid)
  let seconds = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_SECOND
  for (const child of childrenOf(pid)) {
    try {
      seconds += cpuSecondsOf(child)
    } catch {
      // it ended meanwhile: its time is its parent's now, counted from the next reading on
    }
  }
  return seconds
}

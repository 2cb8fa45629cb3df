import { readFileSync } from "node:fs"

const CLOCK_TICKS_PER_SECOND = 100

/**
 * CPU seconds a process has used so far (user + system, from /proc; Linux). A benchmark server's
 * CPU per request is a steadier figure than requests per second when other processes share the
 * cores: the ratio of two routes' CPU per request is the ratio of their req/s on an idle machine.
 */
export const cpuSecondsOf = (pid: number): number => {
  // After "pid (comm) ", the state is field 3: utime and stime (fields 14 and 15) are at 11 and 12.
  const fields = readFileSync(`/proc/${pid}/stat`, "latin1").replace(/^.*\) /, "").split(" ")
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND
}

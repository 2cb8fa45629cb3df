import { CLI, type RunningProcess, startProcess } from "./processTree.ts"

export { CLI }

export type RunningCli = RunningProcess

/** Starts `vault-gateway <args>` as a child process with extra environment variables. */
export const startCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}): RunningCli =>
  // METRICS_PORT=0: parallel tests never race for the default metrics port
  startProcess(process.execPath, [CLI, ...args], { METRICS_PORT: process.env.METRICS_PORT ?? "0", ...env }, "exit")

/** Runs the CLI to completion. */
export const runCli = async (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const running = startCli(args, env)
  const code = await running.exited
  return { code, output: running.output() }
}

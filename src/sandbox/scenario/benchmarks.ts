import { createSandboxChain } from "../sandbox.ts"
import type { ScenarioOptions } from "./config.ts"
import { installScenario } from "./scenario.ts"

/**
 * Measurements behind the sandbox's load figures (run them from a benchmark, not a timed test):
 * bulk genesis (positions written at genesis, wall and CPU seconds) and the firehose (account
 * updates landed per second of wall time while the keeper charges fees across bulk positions).
 */
export interface BulkGenesisFigures {
  readonly positions: number
  readonly wallSeconds: number
  readonly cpuSeconds: number
  readonly pdaSeconds: number
  readonly workers: number
  readonly cachedAddresses: boolean
  readonly accounts: number
  readonly rssMegabytes: number
}

const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}

export const measureBulkGenesis = (positions: number, options: ScenarioOptions = {}): BulkGenesisFigures => {
  const chain = createSandboxChain({ seed: 1, runId: "bulk-benchmark" })
  const cpu = process.cpuUsage()
  const started = performance.now()
  const scenario = installScenario(chain, { users: 50, builders: 5, activity: 0, ...options, bulkUsers: positions })
  return {
    positions,
    wallSeconds: (performance.now() - started) / 1000,
    cpuSeconds: cpuSeconds(cpu),
    pdaSeconds: scenario.bulk?.pdaSeconds ?? 0,
    workers: scenario.bulk?.workers ?? 0,
    cachedAddresses: scenario.bulk?.cached ?? false,
    accounts: chain.ledger.accounts.size,
    rssMegabytes: Math.round(process.memoryUsage().rss / 1e6)
  }
}

export interface FirehoseFigures {
  readonly slots: number
  readonly accountUpdates: number
  readonly transactions: number
  readonly wallSeconds: number
  /** Updates per second of chain time: the firehose's configured output. */
  readonly updatesPerChainSecond: number
  /** Updates per second of wall time with slots run back to back: the machine's capacity. */
  readonly updatesPerSecond: number
  readonly updatesPerCpuSecond: number
}

export const measureFirehose = (slots: number, options: ScenarioOptions = {}): FirehoseFigures => {
  const chain = createSandboxChain({ seed: 1, runId: "firehose-benchmark" })
  const scenario = installScenario(chain, { users: 50, builders: 5, activity: 0, bulkUsers: 100_000, ...options, firehose: true })
  // Positions charged twice within one second change nothing; start once every position has aged.
  chain.step(1, 10_000)
  scenario.keeperBot.setWallBudget(false)
  let accountUpdates = 0
  chain.ledger.subscribe((event) => {
    if (event.kind === "accounts") accountUpdates += event.writes.length
  })
  const transactionsBefore = chain.ledger.transactions.size
  const cpu = process.cpuUsage()
  const started = performance.now()
  chain.step(slots)
  const wallSeconds = (performance.now() - started) / 1000
  scenario.stop()
  return {
    slots,
    accountUpdates,
    transactions: chain.ledger.transactions.size - transactionsBefore,
    wallSeconds,
    updatesPerChainSecond: Math.round(accountUpdates / ((slots * chain.slotMs) / 1000)),
    updatesPerSecond: Math.round(accountUpdates / wallSeconds),
    updatesPerCpuSecond: Math.round(accountUpdates / cpuSeconds(cpu))
  }
}

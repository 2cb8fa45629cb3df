import { describe, expect, it } from "vitest"
import { eventsFromLogs } from "../../../src/ntbundle/events.ts"
import type { TransactionRecord } from "../../../src/sandbox/ledger/transactionStore.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { scenarioChainOptions } from "../../../src/sandbox/scenario/config.ts"
import { installScenario } from "../../../src/sandbox/scenario/scenario.ts"

describe("history fast-forward", () => {
  it("starts the chain days in the past and fast-forwards to now with the keeper and activity running", () => {
    const now = Date.now()
    const options = { users: 10, builders: 2, historyDays: 3, historyStepSeconds: 3_600, vaultIds: [76, 60], initialPositions: 0.8 }
    const chain = createSandboxChain({ seed: 4, runId: "history-test", slotMs: 400, ...scenarioChainOptions(options, now) })
    const landed: Array<TransactionRecord> = []
    chain.ledger.subscribe((event) => {
      if (event.kind === "accounts" && event.transaction !== undefined) landed.push(event.transaction)
    })
    const scenario = installScenario(chain, options)
    const genesisTime = chain.ledger.clock.blockTime(chain.ledger.clock.firstSlot)
    expect(now / 1000 - genesisTime).toBeGreaterThan(3 * 86_400 - 60)

    scenario.fastForward(now)
    expect(Math.abs(chain.ledger.clock.unixMs() - now)).toBeLessThan(1_000)
    const days = new Set(landed.map((record) => Math.floor(record.blockTime / 86_400)))
    expect(days.size).toBeGreaterThanOrEqual(3)
    expect(scenario.keeperBot.stats.oracleUpdates).toBeGreaterThanOrEqual(2 * 70)
    expect(scenario.keeperBot.stats.failures).toBe(0)
    expect(scenario.activity.stats.landed).toBeGreaterThan(20)
    const chargedByDay = new Set(
      landed.filter((record) => eventsFromLogs(record.logs, chain.programId).some(({ event }) => event.name === "ChargedFeesToUser")).map((record) => Math.floor(record.blockTime / 86_400))
    )
    expect(chargedByDay.size).toBeGreaterThanOrEqual(3)
    expect(checkInvariants(chain.ledger, chain.programId)).toEqual([])

    const tip = chain.ledger.slot
    chain.step(5)
    expect(chain.ledger.clock.unixMs() - chain.ledger.clock.unixMs(tip)).toBe(5 * 400)
  })
})

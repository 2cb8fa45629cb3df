import { describe, expect, it } from "vitest"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { installScenario } from "../../../src/sandbox/scenario/scenario.ts"

// Random seeded scenarios with every kind of step (deposits with and without attribution,
// top-ups, withdrawals, claims, keeper netting, payouts, fee charging, price moves); the
// conservation laws are checked after every landed transaction and every slot.
const SEEDS = [1, 2, 3, 4, 5, 6]

describe("invariants under random seeded activity", () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: supply conserved, shares sum to total_shares, counters consistent, after every step`, () => {
      const chain = createSandboxChain({ seed, runId: `invariants-${seed}` })
      const scenario = installScenario(chain, {
        users: 10,
        builders: 3,
        activity: 3,
        initialPositions: 0.8,
        vaultIds: [60, 67, 76],
        keeperIntervalSlots: 5,
        configureVault: (config) => ({ ...config, withdrawalDelaySeconds: 0n, withdrawalTMinSeconds: 5n, withdrawalTMaxSeconds: 120n })
      })
      const violations: Array<string> = []
      let checks = 0
      const check = (where: string): void => {
        checks++
        for (const violation of checkInvariants(chain.ledger, chain.programId)) violations.push(`${where}: ${violation}`)
      }
      check("after setup")
      chain.ledger.subscribe((event) => {
        if (event.kind === "accounts" && event.transaction !== undefined) check(`after ${event.transaction.signature}`)
      })
      chain.scheduler.onSlot((slot) => check(`slot ${slot}`))
      chain.step(150)
      chain.step(10, 30_000)
      chain.step(100)

      expect(violations.slice(0, 5)).toEqual([])
      expect(checks).toBeGreaterThan(300)
      const { stats } = scenario.activity
      expect(stats.landed).toBeGreaterThan(20)
      expect(stats.topUps + stats.firstDeposits + stats.attributedDeposits).toBeGreaterThan(0)
      expect(stats.withdrawals).toBeGreaterThan(0)
      expect(scenario.keeperBot.stats).toMatchObject({ failures: 0 })
      expect(scenario.keeperBot.stats.withdrawals).toBeGreaterThan(0)
      expect(scenario.keeperBot.stats.deposits).toBeGreaterThan(0)
    })
  }
})

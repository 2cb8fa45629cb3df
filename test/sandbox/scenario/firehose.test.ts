import { describe, expect, it } from "vitest"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { installScenario } from "../../../src/sandbox/scenario/scenario.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"

// The firehose's volume per slot (its rate in wall time is a benchmark: see benchmarks.ts).
describe("firehose mode", () => {
  it("charges fees across bulk positions every slot, in keeper transactions", () => {
    const chain = createSandboxChain({ seed: 2, runId: "firehose-test" })
    const scenario = installScenario(chain, { users: 8, builders: 3, activity: 0, vaultIds: [76, 60, 48, 65, 71], bulkUsers: 12_000, bulkCacheDirectory: false, firehose: true })
    // A position charged again within the same second changes nothing (no fee, same timestamp) and
    // so writes nothing: start 10 s later, with enough positions that each comes round every ~2 s.
    chain.step(1, 10_000)
    // Volume per slot, not speed: without the wall budget a slow machine still does a slot's full work.
    scenario.keeperBot.setWallBudget(false)
    let updates = 0
    chain.ledger.subscribe((event) => {
      if (event.kind === "accounts" && event.transaction !== undefined) updates += event.writes.length
    })
    chain.step(3)
    // 2,000 updates per 400 ms slot is the 5,000/s target in chain time.
    expect(updates / 3).toBeGreaterThan(2_000)
    expect(scenario.keeperBot.stats.oracleUpdates).toBeGreaterThanOrEqual(3 * 5)
    expect(scenario.keeperBot.stats.failures).toBe(0)
    expect(checkInvariants(chain.ledger, chain.programId, { vaultOf: (position) => scenario.index.vaultOf(position) })).toEqual([])
  })
})

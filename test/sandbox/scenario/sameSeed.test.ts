import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { historyStartMs, scenarioChainOptions } from "../../../src/sandbox/scenario/config.ts"
import { installScenario } from "../../../src/sandbox/scenario/scenario.ts"
import { TOKEN_PROGRAM_ID } from "../../../src/sandbox/programs/ids.ts"
import { PYTH_RECEIVER_PROGRAM_ID } from "../../../src/pyth/priceUpdate.ts"

const DAY_MS = 86_400_000
const options = { users: 12, builders: 2, historyDays: 2, historyStepSeconds: 4 * 3_600, vaultIds: [76, 60], initialPositions: 0.8 }
const programId = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"

/** A scenario chain started at `nowMs`, its history generated up to `untilMs`. */
const generate = (seed: number, nowMs: number, untilMs: number) => {
  const chain = createSandboxChain({ seed, programId, slotMs: 400, ...scenarioChainOptions({ ...options, programId, slotMs: 400 }, nowMs) })
  const scenario = installScenario(chain, options)
  scenario.fastForward(untilMs)
  scenario.stop()
  return chain
}

/** Every account of the vault program, the token program and the price feeds, hashed in address order. */
const ledgerDigest = (chain: ReturnType<typeof generate>) => {
  const hash = createHash("sha256")
  for (const owner of [programId, TOKEN_PROGRAM_ID, PYTH_RECEIVER_PROGRAM_ID]) {
    const accounts = [...chain.ledger.accounts.ownedBy(owner)].sort(([a], [b]) => (a < b ? -1 : 1))
    for (const [address, record] of accounts) hash.update(address).update(record.data).update(String(record.lamports))
  }
  return hash.digest("hex")
}

describe("same seed, same chain", () => {
  const day = Date.UTC(2026, 10, 20)
  const morning = day + 3 * 3_600_000 + 17_000
  const evening = day + 21 * 3_600_000 + 431_000

  it("two starts on the same day generate the same ledger through the last completed day, whatever the time of day", () => {
    const a = generate(1, morning, day)
    const b = generate(1, evening, day)
    // different chains from today on: a checkpoint of one must not be resumed on the other
    expect(a.genesisHash).not.toBe(b.genesisHash)
    expect(a.ledger.clock.unixMs(a.ledger.clock.firstSlot)).toBe(historyStartMs(options, morning))
    expect(a.ledger.slot).toBe(b.ledger.slot)
    expect(a.ledger.clock.unixMs()).toBe(day)
    expect(b.ledger.clock.unixMs(b.ledger.clock.firstSlot)).toBe(historyStartMs(options, evening))
    expect(ledgerDigest(a)).toBe(ledgerDigest(b))
  })

  it("the same start time gives the same chain up to now, and another seed or day another chain", () => {
    const a = generate(1, morning, morning)
    const b = generate(1, morning, morning)
    expect(ledgerDigest(a)).toBe(ledgerDigest(b))
    expect(a.genesisHash).toBe(b.genesisHash)
    const otherSeed = generate(2, morning, day)
    expect(otherSeed.genesisHash).not.toBe(a.genesisHash)
    const nextDay = generate(1, morning + DAY_MS, day + DAY_MS)
    expect(nextDay.genesisHash).not.toBe(a.genesisHash)
    expect(ledgerDigest(nextDay)).not.toBe(ledgerDigest(generate(1, morning, day)))
  })
})

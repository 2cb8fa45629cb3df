import { describe, expect, it } from "vitest"
import { addressToBytes, verifySignature } from "../../../src/sandbox/crypto/keypair.ts"
import { decodeTransaction } from "../../../src/sandbox/runtime/message.ts"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { scenarioChainOptions } from "../../../src/sandbox/scenario/config.ts"
import { installScenario } from "../../../src/sandbox/scenario/scenario.ts"

const options = { users: 12, builders: 2, historyDays: 6, historyStepSeconds: 4 * 3_600, vaultIds: [76, 60], initialPositions: 0.8 }
const programId = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"

describe("scenario history signatures", () => {
  it("sets the scenario up and generates its history with valid signatures that are its id and part of its wire bytes", () => {
    const now = Date.now()
    const chain = createSandboxChain({ seed: 3, programId, slotMs: 400, ...scenarioChainOptions({ ...options, programId, slotMs: 400 }, now) })
    const scenario = installScenario(chain, options)
    scenario.fastForward(now)
    scenario.stop()

    const records = chain.ledger.transactions.forAddress(programId, { limit: 1_000_000, maxSlot: Number.MAX_SAFE_INTEGER })
    expect(records.length).toBeGreaterThan(100)
    for (const record of records) {
      const decoded = decodeTransaction(record.wireBytes)
      if ("kind" in decoded) throw new Error(`${record.signature}: ${JSON.stringify(decoded)}`)
      expect(decoded.signature).toBe(record.signature)
      decoded.signatures.forEach((signature, i) =>
        expect(verifySignature(addressToBytes(decoded.accountKeys[i]!), decoded.messageBytes, signature)).toBe(true))
    }
  })
})

import type { Address } from "@solana/kit"
import { describe, expect, it } from "vitest"
import { findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { DISCRIMINATOR, hasDiscriminator, userBundleView } from "../../../src/sandbox/ntbundle/layout.ts"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { installScenario } from "../../../src/sandbox/scenario/scenario.ts"

describe("bulk genesis", () => {
  it("writes positions at their PDAs, consistent with the vaults and their builders", () => {
    const chain = createSandboxChain({ seed: 9, runId: "bulk-test" })
    const scenario = installScenario(chain, { users: 6, builders: 3, activity: 0, vaultIds: [60, 76, 82], bulkUsers: 20_000, bulkCacheDirectory: false })
    expect(scenario.bulk).toMatchObject({ count: 20_000, cached: false })
    expect(scenario.bulk!.referred).toBeGreaterThan(2_000)
    const positions = Array.from(chain.ledger.accounts.ownedBy(chain.programId)).filter(([, record]) => hasDiscriminator(record.data, DISCRIMINATOR.UserBundleAccount))
    expect(positions.length).toBeGreaterThanOrEqual(20_000)
    for (const [address, record] of positions.slice(-200)) {
      const vault = scenario.index.vaultOf(address)!
      expect(findUserBundlePda(chain.programId as Address, userBundleView(record.data).owner as Address, vault as Address)[0]).toBe(address)
    }
    expect(checkInvariants(chain.ledger, chain.programId, { vaultOf: (position) => scenario.index.vaultOf(position) })).toEqual([])
    expect(scenario.index.vault(scenario.vaults[0]!.config.address)!.positions.length).toBeGreaterThan(5_000)
  })
})

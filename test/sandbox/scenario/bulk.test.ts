import type { Address } from "@solana/kit"
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { isOnEd25519Curve } from "../../../src/ntbundle/ed25519.ts"
import { findProgramAddressSync, findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import { decodeBase58Bytes32, encodeBase58Bytes32 } from "../../../src/ntbundle/base58.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { DISCRIMINATOR, hasDiscriminator, userBundleView } from "../../../src/sandbox/ntbundle/layout.ts"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { findPdaInto, isOnCurve } from "../../../src/sandbox/scenario/fast-pda.ts"
import { installScenario } from "../../../src/sandbox/scenario/scenario.ts"

describe("bulk genesis", () => {
  it("derives PDAs exactly as src/ntbundle does", () => {
    const program = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"
    const out = new Uint8Array(32)
    const edge = [new Uint8Array(32), Uint8Array.from({ length: 32 }, (_, index) => (index === 0 ? 1 : 0)), Uint8Array.from({ length: 32 }, (_, index) => (index === 0 ? 1 : index === 31 ? 0x80 : 0)), new Uint8Array(32).fill(255)]
    for (const bytes of [...edge, ...Array.from({ length: 3_000 }, () => new Uint8Array(randomBytes(32)))]) expect(isOnCurve(bytes)).toBe(isOnEd25519Curve(bytes))
    for (let round = 0; round < 300; round++) {
      const seeds = [new TextEncoder().encode("USER_BUNDLE"), new Uint8Array(randomBytes(32)), new Uint8Array(randomBytes(32))]
      const [address, expectedBump] = findProgramAddressSync(program as Address, seeds)
      const bump = findPdaInto(seeds, decodeBase58Bytes32(program)!, out)
      expect([encodeBase58Bytes32(out), bump]).toEqual([address, expectedBump])
    }
  })

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

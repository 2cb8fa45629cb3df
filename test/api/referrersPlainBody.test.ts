import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Schema } from "effect"
import { toCohortUser } from "../../src/api/referrers/CohortUser.ts"
import { toFlow } from "../../src/api/referrers/Flow.ts"
import { PreEncoded } from "../../src/api/preEncoded.ts"
import { CohortUserPageBody, FlowPageBody } from "../../src/api/referrers/ReferrersApi.ts"
import { cohortPage } from "../../src/domain/reporting/cohortPage.ts"
import type { FlowRow } from "../../services/CohortEventLog.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const USDC_VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const GONE_VAULT = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const WALLETS = ["7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs", "3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh", "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"] as Array<Address>

const fixture = new VaultStateFixture({ slot: 3_000, blockTime: 1_800_000_000 })
  .vault(USDC_VAULT, { bundle: { assetAddress: USDC, bundleUnderlyingBalance: 10n ** 12n, totalShares: 7n * 10n ** 11n }, oracle: { averageExternalEquity: 5n } })
  .position(USDC_VAULT, WALLETS[0]!, { shares: 2n ** 100n, netDeposits: -(2n ** 90n), pendingDeposit: 1n, lastDepositTimestamp: 1_799_999_000n, referrer: BUILDER })
  .position(USDC_VAULT, WALLETS[1]!, { shares: 0n, netDeposits: 0n, referrer: BUILDER })
  .position(USDC_VAULT, WALLETS[2]!, { shares: 123_456_789n, netDeposits: 99n, referrer: BUILDER })

/** The contract's own encoding of a body, as the transport would have produced it. */
const viaSchema = <A, I>(schema: Schema.Schema<A, I>, value: A) => JSON.stringify(Schema.encodeSync(schema)(value))

describe("plain bodies of the cohort routes", () => {
  it("a users page is byte for byte what the contract encodes (every binding state)", () => {
    const state = fixture.state
    const { members } = cohortPage(state, BUILDER, { vault: null, after: null, limit: 10 })
    expect(members).toHaveLength(3)
    const bindings = [
      { vault: USDC_VAULT, wallet: WALLETS[0]!, slot: 7, time: 1_700_000_000, referralPfeeBps: 0, referralMfeeBps: 1_000, referralTierIndex: null },
      "backfilling" as const,
      "not_recorded" as const
    ]
    const body = {
      success: true as const,
      data: {
        referrer: BUILDER,
        users: members.map((member, index) => toCohortUser(state, member, () => ({ usd: 0.9998 } as never), bindings[index]!)!),
        nextCursor: "abc.def"
      },
      asOf: { slot: 3_000, blockTime: 1_800_000_000 },
      priceAsOf: { slot: 2_990, blockTime: 1_799_999_990 }
    }
    expect(PreEncoded.plainEncoder(CohortUserPageBody)(body).body).toBe(viaSchema(CohortUserPageBody, body))
  })

  it("a flows page is byte for byte what the contract encodes (each kind, a vault no longer projected)", () => {
    const row = (kind: FlowRow["kind"], vault: string, extra: Partial<FlowRow> = {}): FlowRow => ({
      signature: `sig-${kind}`, eventIndex: 3, slot: 99, vault, wallet: WALLETS[0]!, kind, stage: kind === "refund" ? "processed" : "requested",
      amount: 2n ** 63n + 5n, estimated: kind === "withdrawal", shares: kind === "withdrawal" ? 2n ** 127n : null, blockTime: null, timestamp: 1_799_000_000n,
      ...extra
    })
    const rows = [row("deposit", USDC_VAULT, { blockTime: 1_799_000_001 }), row("withdrawal", USDC_VAULT), row("refund", GONE_VAULT)]
    const body = {
      success: true as const,
      data: { referrer: BUILDER, flows: rows.map((flow) => toFlow(flow, fixture.state, () => null)), nextCursor: null },
      asOf: { slot: 3_000, blockTime: null },
      priceAsOf: null
    }
    expect(PreEncoded.plainEncoder(FlowPageBody)(body).body).toBe(viaSchema(FlowPageBody, body))
  })
})

import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Schema } from "effect"
import { StatusBody, toStatusBody } from "../../src/api/system/statusBody.ts"
import { Balance, toBalance } from "../../src/api/users/balance.ts"
import { findPosition } from "../../src/api/users/positionOf.ts"
import { ReferrerSummary, toReferrerVaultSummary } from "../../src/api/referrers/ReferrerSummary.ts"
import { toVaultRecord } from "../../src/api/vaults/toVaultRecord.ts"
import { VaultRecord } from "../../src/api/vaults/VaultRecord.ts"
import { referrerVaults } from "../../src/domain/reporting/referrerVaults.ts"
import { isShapeCompiled, shapeEncoder } from "../../src/ws/shapeEncoder.ts"
import { putReferrer } from "../../src/bench/support/referrersFixture.ts"
import { liveStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" as Address
const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address

const fixture = new VaultStateFixture({ slot: 1_000, blockTime: 1_800_000_000 })
  .vault(VAULT, {
    bundle: { assetAddress: USDC, assetDecimals: 6, totalShares: 5_000_000n, bundleUnderlyingBalance: 7_000_000n },
    oracle: { averageExternalEquity: 1_000_000n, lastUpdateTime: 1_799_999_000n }
  })
  .position(VAULT, WALLET, { shares: 40_000n, referrer: BUILDER })
putReferrer(fixture.state, VAULT, BUILDER, { accruedMfeeShares: 1_000n })
const state = fixture.state
const noPrice = () => null

describe("shapeEncoder", () => {
  it("compiles the stream's four schemas and encodes their values exactly as Schema.encodeSync, extra keys dropped", () => {
    const view = state.vaults.get(VAULT)!
    const position = findPosition(state, view, WALLET)
    if (position._tag !== "Right") throw new Error("the fixture's position is missing")
    const samples: ReadonlyArray<readonly [Schema.Schema<any, any>, unknown]> = [
      [VaultRecord, toVaultRecord(view, state.asOf, noPrice)],
      [Balance, toBalance(view, position.right, state.asOf, noPrice)],
      [ReferrerSummary, { referrer: BUILDER, vaults: referrerVaults(state, BUILDER).map((vault) => toReferrerVaultSummary(vault, noPrice)) }],
      [StatusBody, toStatusBody(liveStatus(1_000))],
      [StatusBody, toStatusBody({ ...liveStatus(1_000), status: "starting", asOf: null, lagSlots: null, lagSeconds: null })]
    ]
    for (const [schema, value] of samples) {
      expect(isShapeCompiled(schema)).toBe(true)
      const expected = Schema.encodeSync(schema)(value)
      expect(shapeEncoder(schema)(value)).toEqual(expected)
      expect(JSON.stringify(shapeEncoder(schema)(value))).toBe(JSON.stringify(expected))
      expect(shapeEncoder(schema)({ ...(value as object), notInTheContract: 1 })).toEqual(expected)
    }
    expect((samples[2]![1] as { vaults: Array<unknown> }).vaults).toHaveLength(1)
  })

  it("keeps present optional keys, nulls, nested arrays and literals; leaves out absent optional keys", () => {
    const schema = Schema.Struct({
      kind: Schema.Literal("a", "b"),
      note: Schema.optional(Schema.String),
      nested: Schema.NullOr(Schema.Struct({ n: Schema.Int, tags: Schema.Array(Schema.Struct({ t: Schema.String })) }))
    })
    const encode = shapeEncoder(schema)
    expect(encode({ kind: "a", nested: null })).toEqual({ kind: "a", nested: null })
    expect("note" in (encode({ kind: "a", nested: null }) as object)).toBe(false)
    const full = { kind: "b" as const, note: "x", nested: { n: 2, tags: [{ t: "y", extra: true } as { t: string }] } }
    expect(encode(full)).toEqual({ kind: "b", note: "x", nested: { n: 2, tags: [{ t: "y" }] } })
  })

  it("falls back to Schema.encodeSync for what it cannot project (a transformation, a union of structs)", () => {
    const transformed = Schema.Struct({ n: Schema.NumberFromString })
    expect(isShapeCompiled(transformed)).toBe(false)
    expect(shapeEncoder(transformed)({ n: 5 })).toEqual({ n: "5" })
    const union = Schema.Union(Schema.Struct({ a: Schema.String }), Schema.Struct({ b: Schema.String }))
    expect(isShapeCompiled(union)).toBe(false)
    expect(shapeEncoder(union)({ b: "x" })).toEqual({ b: "x" })
  })
})

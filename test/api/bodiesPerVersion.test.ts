import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { BodiesPerVersion } from "../../src/api/bodiesPerVersion.ts"
import type { ProjectionState } from "../../src/domain/projection/state.ts"

describe("BodiesPerVersion", () => {
  it("builds and encodes a key's body once per projection version and chain position", () => {
    const state = { version: 1, asOf: { slot: 10, blockTime: null } } as unknown as ProjectionState
    let builds = 0
    const bodies = new BodiesPerVersion(Schema.Struct({ n: Schema.BigInt }), (_state, n: bigint) => {
      builds++
      return { n }
    })
    const first = bodies.get(state, "a", 5n)
    expect(first.body).toBe(`{"n":"5"}`)
    expect(bodies.get(state, "a", 6n)).toBe(first)
    expect(bodies.get(state, "b", 6n).body).toBe(`{"n":"6"}`)
    expect(builds).toBe(2)
    state.version = 2
    expect(bodies.get(state, "a", 7n).body).toBe(`{"n":"7"}`)
    state.asOf = { slot: 11, blockTime: null }
    expect(bodies.get(state, "a", 8n).body).toBe(`{"n":"8"}`)
    expect(builds).toBe(4)
  })
})

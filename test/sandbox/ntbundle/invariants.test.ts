import { describe, expect, it } from "vitest"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { userBundleView } from "../../../src/sandbox/ntbundle/layout.ts"
import { decodeMint, encodeMint } from "../../../src/sandbox/programs/tokenLayout.ts"
import { findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import { makeHarness, MINT, USDC } from "./harness.ts"
import { flows } from "./flows.ts"

// The checker must catch what it claims to: each corruption below breaks one law.
describe("checkInvariants", () => {
  const setup = () => {
    const h = makeHarness()
    const alice = h.wallet("alice")
    flows(h).deposit(alice, 1_000n * USDC)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
    return { h, alice }
  }
  const rewrite = (h: ReturnType<typeof makeHarness>, address: string, edit: (data: Uint8Array) => void) => {
    const record = h.chain.ledger.getAccount(address)!
    const data = new Uint8Array(record.data)
    edit(data)
    h.chain.setAccount(address, { ...record, data })
  }

  it("reports shares that do not sum to total_shares", () => {
    const { h, alice } = setup()
    rewrite(h, findUserBundlePda(h.programId, alice.address as never, h.vault)[0], (data) => {
      userBundleView(data).shares += 1n
    })
    expect(checkInvariants(h.chain.ledger, h.programId).join()).toContain("total_shares")
  })

  it("reports a mint whose supply differs from its accounts", () => {
    const { h } = setup()
    rewrite(h, MINT, (data) => data.set(encodeMint({ ...decodeMint(data)!, supply: decodeMint(data)!.supply + 1n })))
    expect(checkInvariants(h.chain.ledger, h.programId).join()).toContain(`mint ${MINT}`)
  })

  it("reports pending deposits the pending token account does not hold", () => {
    const { h, alice } = setup()
    rewrite(h, findUserBundlePda(h.programId, alice.address as never, h.vault)[0], (data) => {
      userBundleView(data).pendingDeposit = 5n
    })
    expect(checkInvariants(h.chain.ledger, h.programId).join()).toContain("cumulative_pending_deposits")
  })
})

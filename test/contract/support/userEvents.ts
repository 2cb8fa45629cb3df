import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const day = (date: string, hour: number) => Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00Z`) / 1000

/**
 * A wallet's program events in the event log, so that the contract run reads real pages of the user
 * history routes: deposits requested and processed, a refund, fees, a withdrawal requested and paid.
 */
export const seedUserEvents = (input: { readonly vault: string; readonly otherVault: string; readonly alice: string; readonly bob: string }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { alice, bob, otherVault, vault } = input
    const events: Array<{ time: number; name: string; vault: string; wallet: string; data: Record<string, unknown> }> = []
    const add = (time: number, name: string, at: string, wallet: string, data: Record<string, unknown>) =>
      events.push({ time, name, vault: at, wallet, data: { bundleAccountKey: at, timestamp: String(time), ...data } })
    let shares = 0n
    for (let i = 0; i < 30; i++) {
      const date = new Date(Date.UTC(2026, 11, 3) + i * 86_400_000).toISOString().slice(0, 10)
      add(day(date, 9), "DepositRequested", vault, alice, { user: alice, amount: "1000000", grossAmount: "1000000", feeAmount: "1000", netAmount: "999000", toppingUp: false })
      const before = shares
      shares += 990_000n
      add(day(date, 10), "Allocated", vault, alice, { netAmount: "999000", amount: "999000", sharePrice: String(1_000_000 + i * 500), userSharesBefore: String(before), userSharesAfter: String(shares), totalShares: "3000000" })
      if (i % 3 === 1) {
        shares -= 1_000n
        add(day(date, 12), "ChargedFeesToUser", vault, alice, { user: alice, totalFeeShares: "1000", totalFeeValue: "1001", managementFeeShares: "1000", performanceFeeShares: "0", sharePrice: String(1_000_000 + i * 500), userSharesAfter: String(shares) })
      }
      if (i % 5 === 2) {
        add(day(date, 13), "WithdrawalRequested", vault, alice, { user: alice, amount: "500000", cooldownPeriod: "3600", estimatedPendingWithdrawalValue: "500100", cooldownEndTimestamp: String(day(date, 14)), estimatedNetAmount: "499000" })
        add(day(date, 15), "Redeemed", vault, alice, { netAmount: "499000", feeAmount: "1100", grossAmount: "500100", sharePrice: String(1_000_000 + i * 500), userSharesBefore: String(shares), userSharesAfter: String(shares - 500_000n), totalSharesBefore: "3000000", totalSharesAfter: "2500000" })
        shares -= 500_000n
      }
    }
    add(day("2026-12-20", 9), "DepositRequested", otherVault, alice, { user: alice, amount: "5000000", grossAmount: "5000000", feeAmount: "0", netAmount: "5000000", toppingUp: false })
    add(day("2026-12-20", 10), "Allocated", otherVault, alice, { netAmount: "5000000", amount: "5000000", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "5000000", totalShares: "3000000" })
    add(day("2026-12-10", 9), "DepositRequested", vault, bob, { user: bob, amount: "2000000", grossAmount: "2000000", feeAmount: "2000", netAmount: "1998000", toppingUp: false })
    add(day("2026-12-10", 11), "RefundedDeposit", vault, bob, { user: bob, amount: "1998000" })
    events.sort((a, b) => a.time - b.time)
    const rows = events.map((event, i) => ({ ...event, signature: `contract-user-event-${String(i).padStart(4, "0")}`, slot: 1_000 + i }))
    yield* sql`INSERT INTO chain_transaction ${sql.insert(rows.map((row) => ({ signature: row.signature, slot: row.slot, block_time: row.time, failed: false, event_count: 1 })))}`
    yield* sql`INSERT INTO program_event ${sql.insert(rows.map((row) => ({
      signature: row.signature, event_index: 0, slot: row.slot, block_time: row.time, name: row.name,
      raw: new Uint8Array(0), data: JSON.stringify(row.data), vault: row.vault, wallet: row.wallet
    })))}`
    yield* sql`INSERT INTO history_backfill (id, finished) VALUES (1, true) ON CONFLICT (id) DO UPDATE SET finished = true`
  })

import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { VaultHistoryLive } from "../../../layers/postgres/VaultHistoryLive.ts"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { TestDatabase } from "../../support/testDatabase.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"
const at = (date: string, hour: number) => Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00Z`) / 1000
let sequence = 0

const insertEvent = (name: string, date: string, hour: number, data: Record<string, string>, vault = VAULT) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const signature = `sig${sequence++}`
    const slot = sequence * 10
    yield* sql`INSERT INTO chain_transaction ${sql.insert({ signature, slot, block_time: at(date, hour), failed: false, event_count: 1 })}`
    yield* sql`INSERT INTO program_event ${sql.insert({
      signature, event_index: 0, slot, block_time: at(date, hour), name, raw: new Uint8Array([1]),
      data: JSON.stringify(data), vault, wallet: null
    })}`
  })

describe("VaultHistoryLive: daily rows from the event log", () => {
  layer(VaultHistoryLive.pipe(Layer.provideMerge(TestDatabase)), { timeout: 60_000 })((it) => {
    it.effect("closes from the day's last price event, carried over empty days; flows summed per UTC day", () =>
      Effect.gen(function*() {
        yield* insertEvent("DepositRequested", "2026-02-01", 9, { grossAmount: "1000000", feeAmount: "1000" })
        yield* insertEvent("Allocated", "2026-02-01", 10, { sharePrice: "1000000", totalShares: "999000" })
        yield* insertEvent("ChargedFeesToUser", "2026-02-01", 23, { sharePrice: "1000500", totalFeeValue: "7" })
        // 2026-02-02: nothing. 2026-02-03: a withdrawal.
        yield* insertEvent("Redeemed", "2026-02-03", 1, {
          sharePrice: "1002000", totalSharesAfter: "500000", grossAmount: "501000", feeAmount: "1500"
        })
        yield* insertEvent("Allocated", "2026-02-03", 2, { sharePrice: "9" }, "OtherVault1111111111111111111111111111111111")
        const history = yield* VaultHistory
        const rows = yield* history.dailyRows({ vault: VAULT, from: null, to: "2026-02-04", after: null, limit: 100 })
        expect(rows).toEqual([
          {
            date: "2026-02-01", closingSharePrice: 1_000_500n, closingTotalShares: 999_000n, depositsRequested: 1_000_000n,
            depositFees: 1_000n, withdrawalsPaid: 0n, withdrawalFees: 0n, feesCharged: 7n, events: 3
          },
          {
            date: "2026-02-02", closingSharePrice: 1_000_500n, closingTotalShares: 999_000n, depositsRequested: 0n,
            depositFees: 0n, withdrawalsPaid: 0n, withdrawalFees: 0n, feesCharged: 0n, events: 0
          },
          {
            date: "2026-02-03", closingSharePrice: 1_002_000n, closingTotalShares: 500_000n, depositsRequested: 0n,
            depositFees: 0n, withdrawalsPaid: 501_000n, withdrawalFees: 1_500n, feesCharged: 0n, events: 1
          },
          {
            date: "2026-02-04", closingSharePrice: 1_002_000n, closingTotalShares: 500_000n, depositsRequested: 0n,
            depositFees: 0n, withdrawalsPaid: 0n, withdrawalFees: 0n, feesCharged: 0n, events: 0
          }
        ])
        const page = yield* history.dailyRows({ vault: VAULT, from: "2026-02-02", to: "2026-02-03", after: "2026-02-02", limit: 10 })
        expect(page.map((row) => row.date)).toEqual(["2026-02-03"])
        const none = yield* history.dailyRows({ vault: "NoEvents111111111111111111111111111111111111", from: null, to: "2026-02-04", after: null, limit: 10 })
        expect(none).toEqual([])
        const totals = yield* history.depositTotals
        expect(totals.get(VAULT)).toBe(1_000_000n)
      }))
  })
})

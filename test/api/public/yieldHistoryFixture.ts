import { SqlError } from "@effect/sql/SqlError"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import { type DailyRowQuery, VaultHistory } from "../../../services/VaultHistory.ts"
import type { DailyRow } from "../../../src/domain/history/dailyRow.ts"

export const AUTOPILOT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
export const SECOND = "HWjMfYfc7KoPchoEDa5UFyVSpJxY3aV1RAccKvABYb9z" as Address
export const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
// Chain time 2026-03-10 12:00 UTC: the last completed day is 2026-03-09.
export const NOW = Date.UTC(2026, 2, 10, 12) / 1000
export const DAY = 86_400

const date = (index: number) => new Date(Date.UTC(2026, 1, 1) + index * 86_400_000).toISOString().slice(0, 10)
const row = (index: number, price: bigint): DailyRow => ({
  date: date(index),
  closingSharePrice: price,
  closingTotalShares: 1_000_000_000n,
  depositsRequested: 0n,
  depositFees: 0n,
  withdrawalsPaid: 0n,
  withdrawalFees: 0n,
  feesCharged: 0n,
  events: 1
})
// AUTOPILOT: 2026-02-01 .. 2026-03-10, +0.05 % a day; SECOND: only 2026-03-07 .. 2026-03-09 (too short for 7d)
const rowsByVault = new Map<string, ReadonlyArray<DailyRow>>([
  [AUTOPILOT, Array.from({ length: 39 }, (_, i) => row(i, 1_000_000n + BigInt(i) * 500n))],
  [SECOND, [row(34, 2_000_000n), row(35, 2_001_000n), row(36, 2_002_000n)]]
])

/** The daily rows above, filtered like the SQL, counting the reads per vault. */
export const countingHistory = (reads: Map<string, number>, failNext: { value: boolean } = { value: false }) =>
  VaultHistory.of({
    capitalFlows: Effect.succeed({ complete: true, byVault: new Map() }),
    dailyRows: ({ vault, from, to, after, limit }: DailyRowQuery) =>
      Effect.suspend(() => {
        reads.set(vault, (reads.get(vault) ?? 0) + 1)
        if (failNext.value) {
          failNext.value = false
          return Effect.fail(new SqlError({ cause: new Error("connection refused"), message: "connection refused" }))
        }
        return Effect.succeed(
          (rowsByVault.get(vault) ?? [])
            .filter((r) => r.date <= to && (from === null || r.date >= from) && (after === null || r.date > after))
            .slice(0, limit)
        )
      })
  })


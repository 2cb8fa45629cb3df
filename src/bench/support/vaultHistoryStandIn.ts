import { Effect, Layer } from "effect"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import type { DailyRow } from "../../domain/history/dailyRow.ts"

/** `VaultHistory` over fixed rows per vault (already one per day, oldest first), filtered like the SQL. */
export const VaultHistoryStandIn = (rowsByVault: ReadonlyMap<string, ReadonlyArray<DailyRow>> = new Map()) =>
  Layer.succeed(
    VaultHistory,
    VaultHistory.of({
      // Per vault: the fixed rows' requested deposits and paid withdrawals summed; the log is complete.
      capitalFlows: Effect.sync(() => ({
        complete: true,
        byVault: new Map([...rowsByVault].map(([vault, rows]) => [vault, {
          deposited: rows.reduce((sum, row) => sum + row.depositsRequested, 0n),
          withdrawn: rows.reduce((sum, row) => sum + row.withdrawalsPaid, 0n)
        }]))
      })),
      dailyRows: ({ vault, from, to, after, limit }) =>
        Effect.succeed(
          (rowsByVault.get(vault) ?? [])
            .filter((row) => row.date <= to && (from === null || row.date >= from) && (after === null || row.date > after))
            .slice(0, limit)
        )
    })
  )

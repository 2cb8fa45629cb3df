import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { type Binding, CohortEventLog, type FlowKind, type FlowRow, type FlowStage } from "../../services/CohortEventLog.ts"

interface Row {
  readonly signature: string
  readonly event_index: number
  readonly slot: string | number
  readonly block_time: string | number | null
  readonly name: string
  readonly vault: string
  readonly wallet: string
  readonly gross: string | null
  readonly amount: string | null
  readonly estimate: string | null
  readonly ts: string
}

/** Where a flow event's asset amount is: `grossAmount`, `amount`, or the withdrawal request's estimate. */
type AmountField = "gross" | "amount" | "estimate"

/** What each flow event means, and where its asset amount is. */
const KINDS: Readonly<Record<string, { kind: FlowKind; stage: FlowStage; field: AmountField }>> = {
  DepositRequested: { kind: "deposit", stage: "requested", field: "gross" },
  // Allocated's `amount` is the gross deposit the request asked for (`net_amount` is after the fee).
  Allocated: { kind: "deposit", stage: "processed", field: "amount" },
  // WithdrawalRequested's `amount` is shares (u128); its asset value is the program's estimate.
  WithdrawalRequested: { kind: "withdrawal", stage: "requested", field: "estimate" },
  Redeemed: { kind: "withdrawal", stage: "processed", field: "gross" },
  RefundedDeposit: { kind: "refund", stage: "processed", field: "amount" }
}

const toFlowRow = (row: Row): FlowRow => {
  const { field, kind, stage } = KINDS[row.name]!
  const estimated = field === "estimate"
  const assetAmount = field === "gross" ? row.gross : estimated ? row.estimate : row.amount
  return {
    signature: row.signature,
    eventIndex: Number(row.event_index),
    slot: Number(row.slot),
    blockTime: row.block_time === null ? null : Number(row.block_time),
    vault: row.vault,
    wallet: row.wallet,
    kind,
    stage,
    amount: BigInt(assetAmount ?? "0"),
    estimated,
    shares: estimated && row.amount !== null ? BigInt(row.amount) : null,
    timestamp: BigInt(row.ts)
  }
}

/** Bindings kept in memory (about 200 bytes each) before the cache starts over. */
const MAX_CACHED_BINDINGS = 200_000

interface BindingRow {
  readonly vault: string
  readonly wallet: string
  readonly slot: string | number
  readonly block_time: string | number | null
  readonly ts: string
  readonly pfee: string | number
  readonly mfee: string | number
  readonly tier: string | number | null
}

const toBinding = (row: BindingRow): Binding => ({
  vault: row.vault,
  wallet: row.wallet,
  slot: Number(row.slot),
  time: row.block_time === null ? Number(row.ts) : Number(row.block_time),
  referralPfeeBps: Number(row.pfee),
  referralMfeeBps: Number(row.mfee),
  referralTierIndex: row.tier === null ? null : Number(row.tier)
})

/**
 * Cohort flows from `program_event` (indexes of migrations 0010 and 0011). The cohort is the
 * (vault, wallet) pairs bound to the builder by `UserReferrerSet`; binding is permanent per position
 * (facts §5.4, §7), so every flow of a bound pair is the builder's.
 *
 * `Allocated` and `Redeemed` (keeper processing) carry token accounts in `from`/`to`, not the user;
 * their stored `wallet` is the position owner taken from the emitting `process_deposit` /
 * `process_withdrawal` instruction (see eventKeys.ts), so they join the cohort like the others.
 */
export const CohortEventLogLive = Layer.effect(
  CohortEventLog,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    let complete = false
    const recorded = new Map<string, Binding>()
    return CohortEventLog.of({
      flows: ({ after, from, limit, referrer, until }) =>
        Effect.map(
          sql<Row>`
            SELECT e.signature, e.event_index, e.slot, e.block_time, e.name, e.vault, e.wallet,
              e.data->>'grossAmount' AS gross, e.data->>'amount' AS amount,
              e.data->>'estimatedPendingWithdrawalValue' AS estimate, e.data->>'timestamp' AS ts
            FROM program_event e
            WHERE e.name IN ('DepositRequested', 'Allocated', 'WithdrawalRequested', 'Redeemed', 'RefundedDeposit')
              AND EXISTS (
                SELECT 1 FROM program_event b
                WHERE b.name = 'UserReferrerSet' AND b.vault = e.vault AND b.wallet = e.wallet
                  AND b.data->>'referrer' = ${referrer})
              ${from === null ? sql`` : sql`AND COALESCE(e.block_time, (e.data->>'timestamp')::bigint) >= ${from}`}
              ${until === null ? sql`` : sql`AND COALESCE(e.block_time, (e.data->>'timestamp')::bigint) < ${until}`}
              ${after === null ? sql`` : sql`AND (e.slot, e.signature, e.event_index) < (${after.slot}::bigint, ${after.signature}, ${after.eventIndex}::integer)`}
            ORDER BY e.slot DESC, e.signature DESC, e.event_index DESC
            LIMIT ${limit}`,
          (rows) => rows.map(toFlowRow)
        ).pipe(Effect.withSpan("CohortEventLog.flows")),
      bindings: (referrer, pairs) => {
        // A recorded binding never changes (the first UserReferrerSet of a position), so found ones
        // are kept: a page whose rows are all known costs no query.
        const keyOf = (vault: string, wallet: string) => `${referrer}/${vault}/${wallet}`
        const known: Array<Binding> = []
        const missing: Array<{ readonly vault: string; readonly wallet: string }> = []
        for (const pair of pairs) {
          const cached = recorded.get(keyOf(pair.vault, pair.wallet))
          if (cached === undefined) missing.push(pair)
          else known.push(cached)
        }
        if (missing.length === 0) return Effect.succeed(known)
        const wanted = new Set(missing.map((pair) => `${pair.vault}/${pair.wallet}`))
        return Effect.map(
          sql<BindingRow>`
            SELECT vault, wallet, slot, block_time, data->>'timestamp' AS ts, data->>'referralPfeeBps' AS pfee,
              data->>'referralMfeeBps' AS mfee, data->>'referralTierIndex' AS tier
            FROM program_event
            WHERE name = 'UserReferrerSet' AND data->>'referrer' = ${referrer}
              AND vault IN ${sql.in([...new Set(missing.map((pair) => pair.vault))])}
              AND wallet IN ${sql.in([...new Set(missing.map((pair) => pair.wallet))])}
            ORDER BY slot, signature, event_index`,
          (rows) => {
            const found = rows.filter((row) => wanted.has(`${row.vault}/${row.wallet}`)).map(toBinding)
            if (recorded.size + found.length > MAX_CACHED_BINDINGS) recorded.clear()
            for (const binding of found) {
              const key = keyOf(binding.vault, binding.wallet)
              if (!recorded.has(key)) recorded.set(key, binding) // the oldest first: rows come oldest first
            }
            return [...known, ...found]
          }
        ).pipe(Effect.withSpan("CohortEventLog.bindings"))
      },
      historyComplete: Effect.suspend(() =>
        complete
          ? Effect.succeed(true)
          : Effect.map(sql<{ finished: boolean }>`SELECT finished FROM history_backfill WHERE id = 1`, (rows) => {
            complete = rows[0]?.finished === true
            return complete
          })
      ).pipe(Effect.withSpan("CohortEventLog.historyComplete"))
    })
  })
)

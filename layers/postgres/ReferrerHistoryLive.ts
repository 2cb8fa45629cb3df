import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { ReferrerHistory } from "../../services/ReferrerHistory.ts"
import { cutAtDate } from "../../src/domain/history/datePage.ts"
import type { ReferrerDailyRow } from "../../src/domain/history/referrerDailyRow.ts"
import { addUtcDays } from "../../src/domain/history/utcDay.ts"
import { loadRollupState } from "./dailyRollupSql.ts"

interface Row {
  readonly date: string
  readonly referrer: string
  readonly vault: string
  readonly mfee_shares: string
  readonly pfee_shares: string
  readonly closing_share_price: string | null
  readonly cohort_shares: string
  readonly flows_in: string
  readonly flows_out: string
  readonly attributed_users: number
  readonly referred_net_deposits: string
  readonly legacy_flags: number
  readonly partial_through: string | null
}

const toRow = (row: Row): ReferrerDailyRow => ({
  date: row.date,
  referrer: row.referrer,
  vault: row.vault,
  mfeeShares: BigInt(row.mfee_shares),
  pfeeShares: BigInt(row.pfee_shares),
  closingSharePrice: row.closing_share_price === null ? null : BigInt(row.closing_share_price),
  cohortShares: BigInt(row.cohort_shares),
  flowsIn: BigInt(row.flows_in),
  flowsOut: BigInt(row.flows_out),
  attributedUsers: row.attributed_users,
  referredNetDeposits: BigInt(row.referred_net_deposits),
  legacyFlags: row.legacy_flags,
  partialThrough: row.partial_through === null ? null : Number(row.partial_through)
})

/** `ReferrerHistory` over the rollup's `referrer_daily` table: keyset pages by (day, vault), never a log scan. */
export const ReferrerHistoryLive = Layer.effect(
  ReferrerHistory,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(
      "to_char(day, 'YYYY-MM-DD') AS date, referrer, vault, mfee_shares::text, pfee_shares::text, " +
        "closing_share_price::text, cohort_shares::text, flows_in::text, flows_out::text, attributed_users, " +
        "referred_net_deposits::text, legacy_flags, partial_through::text"
    )
    const vaultIs = (vault: string | null) => (vault === null ? sql.literal("TRUE") : sql`vault = ${vault}`)

    return ReferrerHistory.of({
      coverage: Effect.map(loadRollupState(sql), (state) => ({
        closedThrough: state?.closedThrough ?? null,
        coveredThrough: state?.coveredThrough ?? null
      })),
      completedDays: ({ referrer, vault, from, to, after, limit }) =>
        Effect.gen(function*() {
          const lower = [from, after === null ? null : addUtcDays(after, 1)].filter((d): d is string => d !== null).sort().pop() ?? "0001-01-01"
          const rows = yield* sql<Row>`
            SELECT ${columns} FROM referrer_daily
            WHERE referrer = ${referrer} AND NOT partial AND ${vaultIs(vault)} AND day >= ${lower}::date AND day <= ${to}::date
            ORDER BY day, vault COLLATE "C" LIMIT ${limit + 1}`
          const cut = cutAtDate(rows.map(toRow), limit)
          if (cut.wholeDate === null) return { rows: cut.page, more: cut.more }
          const whole = yield* sql<Row>`
            SELECT ${columns} FROM referrer_daily
            WHERE referrer = ${referrer} AND NOT partial AND ${vaultIs(vault)} AND day = ${cut.wholeDate}::date
            ORDER BY vault COLLATE "C"`
          const later = yield* sql<{ one: number }>`
            SELECT 1 AS one FROM referrer_daily
            WHERE referrer = ${referrer} AND NOT partial AND ${vaultIs(vault)} AND day > ${cut.wholeDate}::date AND day <= ${to}::date
            LIMIT 1`
          return { rows: whole.map(toRow), more: later.length > 0 }
        }).pipe(Effect.withSpan("ReferrerHistory.completedDays")),
      provisional: (referrer, vault) =>
        Effect.map(
          sql<Row>`
            SELECT ${columns} FROM referrer_daily
            WHERE referrer = ${referrer} AND partial AND ${vaultIs(vault)}
            ORDER BY day, vault COLLATE "C"`,
          (rows) => rows.map(toRow)
        ).pipe(Effect.withSpan("ReferrerHistory.provisional"))
    })
  })
)

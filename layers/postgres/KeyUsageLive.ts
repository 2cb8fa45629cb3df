import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schedule } from "effect"
import { type KeyDayUsage, KeyUsage } from "../../services/KeyUsage.ts"

interface Count {
  requests: number
  lastUsed: number
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Counts requests per key and UTC day in memory and adds them to `partner_key_usage` (and
 * `partner_key.last_used_at`) every `flushSeconds` and at shutdown: no database write per request.
 * Counts of a failed flush are kept for the next one.
 */
export const KeyUsageLive = (options: { readonly flushSeconds: number } = { flushSeconds: 10 }) =>
  Layer.scoped(
    KeyUsage,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      let pending = new Map<string, Count>()

      const write = (key: string, count: Count) => {
        const [keyId, day] = key.split("|") as [string, string]
        return sql`
          WITH used AS (
            UPDATE partner_key SET last_used_at = GREATEST(COALESCE(last_used_at, '-infinity'), ${new Date(count.lastUsed)})
            WHERE id = ${keyId}::uuid RETURNING id)
          INSERT INTO partner_key_usage (key_id, day, requests)
          SELECT id, ${day}::date, ${count.requests} FROM used
          ON CONFLICT (key_id, day) DO UPDATE SET requests = partner_key_usage.requests + EXCLUDED.requests`
      }

      const flush = Effect.suspend(() => {
        if (pending.size === 0) return Effect.void
        const batch = pending
        pending = new Map()
        return Effect.forEach(batch, ([key, count]) =>
          write(key, count).pipe(
            Effect.catchAll((error) =>
              Effect.zipRight(
                Effect.logWarning("key usage counts could not be written; kept for the next flush", error),
                Effect.sync(() => {
                  const now = pending.get(key)
                  pending.set(key, now === undefined ? count : { requests: now.requests + count.requests, lastUsed: Math.max(now.lastUsed, count.lastUsed) })
                })
              )
            )
          ), { discard: true })
      }).pipe(Effect.withSpan("KeyUsage.flush"))

      yield* flush.pipe(Effect.repeat(Schedule.spaced(`${options.flushSeconds} seconds`)), Effect.forkScoped)
      yield* Effect.addFinalizer(() => flush)

      const daily = (keyIds: ReadonlyArray<string>, fromDay: string) =>
        Effect.gen(function*() {
          const ids = keyIds.filter((id) => UUID.test(id))
          if (ids.length === 0) return []
          const rows = yield* sql<{ keyId: string; day: string; requests: string }>`
            SELECT key_id::text AS "keyId", to_char(day, 'YYYY-MM-DD') AS day, requests::text AS requests
            FROM partner_key_usage WHERE key_id IN ${sql.in(ids)} AND day >= ${fromDay}::date`
          const counts = new Map<string, KeyDayUsage>()
          for (const row of rows) counts.set(`${row.keyId}|${row.day}`, { keyId: row.keyId, day: row.day, requests: Number(row.requests) })
          // what this instance counted since its last flush
          const wanted = new Set(ids)
          for (const [key, count] of pending) {
            const [keyId, day] = key.split("|") as [string, string]
            if (!wanted.has(keyId) || day < fromDay) continue
            const stored = counts.get(key)
            counts.set(key, { keyId, day, requests: (stored?.requests ?? 0) + count.requests })
          }
          return [...counts.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.keyId < b.keyId ? -1 : 1))
        }).pipe(Effect.orDie, Effect.withSpan("KeyUsage.daily"))

      return KeyUsage.of({
        daily,
        record: (keyId, nowMillis) => {
          // keys not stored in Postgres (a test stand-in) have no row to count on
          if (!UUID.test(keyId)) return
          const key = `${keyId}|${new Date(nowMillis).toISOString().slice(0, 10)}`
          const count = pending.get(key)
          if (count === undefined) pending.set(key, { requests: 1, lastUsed: nowMillis })
          else {
            count.requests++
            count.lastUsed = nowMillis
          }
        }
      })
    })
  )

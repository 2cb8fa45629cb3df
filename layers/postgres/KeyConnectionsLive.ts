import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Runtime, Schedule } from "effect"
import { KeyConnections } from "../../services/KeyConnections.ts"

export interface KeyConnectionsOptions {
  /** How often this instance marks itself alive (default 5 s). */
  readonly heartbeatMs?: number
  /** An instance silent for this long is dead: its connections stop counting (default 15 s). */
  readonly expireAfterMs?: number
}

/** The first key of the two-key advisory locks that serialize admissions per partner key. */
const ADMISSION_LOCK_CLASS = 0x5753_4b43 // "WSKC"

/**
 * `KeyConnections` in PostgreSQL (sql/0017): each instance keeps one row per partner key with its
 * open connections, under its own `limit_instance` row with a heartbeat. An admission locks the key
 * (advisory lock), adds the rows of the live instances and writes this instance's count only when
 * the sum stays within the limit, so the instances that heartbeat never hold more than the limit
 * together. The upgrade waits for that one transaction, which also beats for this instance. The
 * rows of an instance that stops (kill -9 included) stop counting once its heartbeat is older than
 * `expireAfterMs`, and are deleted then.
 * When the database cannot be reached, an instance admits on its own count alone (logged).
 */
export const KeyConnectionsLive = (options: KeyConnectionsOptions = {}) =>
  Layer.scoped(
    KeyConnections,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const runtime = yield* Effect.runtime<never>()
      const heartbeatMs = options.heartbeatMs ?? 5_000
      const expireSeconds = (options.expireAfterMs ?? 15_000) / 1000
      const instance = randomUUID()
      /** Open connections of each key on this instance (admitted, not yet released). */
      const open = new Map<string, number>()
      /** Keys whose row may differ from `open` (a write failed): rewritten at the next heartbeat. */
      const dirty = new Set<string>()
      // one database step at a time per key, in order, so a row is written from the count of its turn
      const turns = new Map<string, Effect.Semaphore>()
      const turnOf = (keyId: string) => {
        let turn = turns.get(keyId)
        if (turn === undefined) turns.set(keyId, turn = Effect.unsafeMakeSemaphore(1))
        return turn
      }

      const writeRow = (keyId: string) =>
        Effect.suspend(() => {
          const count = open.get(keyId) ?? 0
          return count === 0
            ? sql`DELETE FROM ws_connection_share WHERE key_id = ${keyId} AND instance_id = ${instance}::uuid`
            : sql`
              INSERT INTO ws_connection_share (key_id, instance_id, connections) VALUES (${keyId}, ${instance}::uuid, ${count})
              ON CONFLICT (key_id, instance_id) DO UPDATE SET connections = EXCLUDED.connections`
        }).pipe(Effect.asVoid)

      const sync = (keyId: string) =>
        turnOf(keyId).withPermits(1)(writeRow(keyId)).pipe(
          Effect.tap(() => Effect.sync(() => dirty.delete(keyId))),
          Effect.catchAll(() => Effect.sync(() => dirty.add(keyId)))
        )

      const beat = sql<{ readonly inserted: boolean }>`
        INSERT INTO limit_instance (id, heartbeat_at) VALUES (${instance}::uuid, now())
        ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
        RETURNING (xmax = 0) AS inserted`

      /** Beats; when this instance had been deleted as dead (cut off for too long), every row is written again. */
      const markAlive = Effect.map(beat, ([row]) => {
        if (row?.inserted === true) for (const keyId of open.keys()) dirty.add(keyId)
      })

      const heartbeat = Effect.gen(function*() {
        yield* markAlive
        yield* Effect.forEach([...dirty], sync, { discard: true })
        yield* sql`DELETE FROM limit_instance WHERE heartbeat_at < now() - make_interval(secs => ${expireSeconds})`
      }).pipe(
        Effect.catchAll((error) => Effect.logWarning("WebSocket connection counts: heartbeat failed", error)),
        Effect.withSpan("KeyConnections.heartbeat")
      )

      yield* beat.pipe(Effect.orDie)
      yield* heartbeat.pipe(Effect.repeat(Schedule.spaced(heartbeatMs)), Effect.delay(heartbeatMs), Effect.forkScoped)
      yield* Effect.addFinalizer(() =>
        sql`DELETE FROM limit_instance WHERE id = ${instance}::uuid`.pipe(
          Effect.catchAll((error) => Effect.logWarning("WebSocket connection counts: could not remove this instance's rows", error))
        )
      )

      const admitShared = (keyId: string, limit: number) =>
        sql.withTransaction(
          Effect.gen(function*() {
            yield* sql`SELECT pg_advisory_xact_lock(${ADMISSION_LOCK_CLASS}, hashtext(${keyId}))`
            // an admitting instance is alive: a heartbeat held up by a busy pool must not let the
            // others overlook its connections, or leave its row without its instance
            yield* markAlive
            const [others] = yield* sql<{ readonly n: number }>`
              SELECT coalesce(sum(s.connections), 0)::int AS n
              FROM ws_connection_share s JOIN limit_instance i ON i.id = s.instance_id
              WHERE s.key_id = ${keyId} AND s.instance_id <> ${instance}::uuid
                AND i.heartbeat_at > now() - make_interval(secs => ${expireSeconds})`
            const mine = (open.get(keyId) ?? 0) + 1
            if (others!.n + mine > limit) return false
            yield* sql`
              INSERT INTO ws_connection_share (key_id, instance_id, connections) VALUES (${keyId}, ${instance}::uuid, ${mine})
              ON CONFLICT (key_id, instance_id) DO UPDATE SET connections = EXCLUDED.connections`
            return true
          })
        )

      const admitAlone = (keyId: string, limit: number, error: unknown) =>
        Effect.zipRight(
          Effect.logWarning("WebSocket connection counts unreachable: this upgrade is counted on this instance alone", error),
          Effect.sync(() => {
            dirty.add(keyId)
            return (open.get(keyId) ?? 0) < limit
          })
        )

      return KeyConnections.of({
        admit: (keyId, limit) =>
          turnOf(keyId).withPermits(1)(
            admitShared(keyId, limit).pipe(
              Effect.catchAll((error) => admitAlone(keyId, limit, error)),
              Effect.tap((admitted) => Effect.sync(() => admitted && open.set(keyId, (open.get(keyId) ?? 0) + 1)))
            )
          ).pipe(Effect.withSpan("KeyConnections.admit")),
        release: (keyId) => {
          const count = (open.get(keyId) ?? 0) - 1
          if (count > 0) open.set(keyId, count)
          else open.delete(keyId)
          Runtime.runFork(runtime)(sync(keyId))
        }
      })
    })
  )

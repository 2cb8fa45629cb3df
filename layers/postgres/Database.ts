import path from "node:path"
import { Effect, Layer, Option, type Redacted } from "effect"
import { embeddedPostgres } from "./EmbeddedPostgres.ts"
import { migrate } from "./migrations.ts"
import { pooledPgClient } from "./pgPool.ts"

export interface DatabaseOptions {
  /** A server to use; without one, an embedded PostgreSQL runs in `<dataDir>/postgres`. */
  readonly url: Option.Option<Redacted.Redacted>
  readonly dataDir: string
}

const clientFor = (options: DatabaseOptions) =>
  Option.match(options.url, {
    onSome: (url) => pooledPgClient({ url }),
    onNone: () =>
      Layer.unwrapScoped(
        Effect.gen(function*() {
          const server = yield* embeddedPostgres(path.join(options.dataDir, "postgres"))
          yield* Effect.logInfo(`embedded PostgreSQL listening on ${server.host}:${server.port}`)
          return pooledPgClient(server)
        })
      )
  })

/** SqlClient (and PgClient) on a migrated database. */
export const DatabaseLive = (options: DatabaseOptions) =>
  Layer.effectDiscard(migrate()).pipe(Layer.provideMerge(clientFor(options)))

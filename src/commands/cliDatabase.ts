import path from "node:path"
import { Option, type Redacted } from "effect"
import { connectionUrl, runningEmbeddedPostgres } from "../../layers/postgres/EmbeddedPostgres.ts"
import type { AppConfig } from "../config.ts"

/**
 * The database a command works on: DATABASE_URL, else the embedded PostgreSQL a running `serve` has
 * up in DATA_DIR (connecting to it, not starting a second one); None: start the embedded one.
 */
export const commandDatabaseUrl = (settings: Pick<AppConfig, "databaseUrl" | "dataDir">): Option.Option<Redacted.Redacted> => {
  if (Option.isSome(settings.databaseUrl)) return settings.databaseUrl
  const running = runningEmbeddedPostgres(path.join(settings.dataDir, "postgres"))
  return running === null ? Option.none() : Option.some(connectionUrl(running))
}

import type { SqlError } from "@effect/sql/SqlError"
import { ChainStoreError } from "../../services/ChainStore.ts"

/** The database's own words (constraint, connection, ...) rather than the client's generic message. */
const reasonOf = (error: SqlError): string =>
  error.cause instanceof Error && error.cause.message !== "" ? error.cause.message : error.message

/** Maps a SqlError to a ChainStoreError saying what the store was doing: `could not <action>: <reason>`. */
export const storeFailure = (action: string) => (error: SqlError): ChainStoreError =>
  new ChainStoreError({ message: `ChainStore could not ${action}: ${reasonOf(error)}`, cause: error })

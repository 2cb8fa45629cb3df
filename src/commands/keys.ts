import fs from "node:fs"
import path from "node:path"
import { parseArgs } from "node:util"
import { Cause, Effect, Either, Exit, Layer, LogLevel, Option, Redacted } from "effect"
import { DatabaseLive } from "../../layers/postgres/Database.ts"
import { PartnerKeysLive } from "../../layers/postgres/PartnerKeysLive.ts"
import { type PartnerKeyRecord, PartnerKeys } from "../../services/PartnerKeys.ts"
import { appConfig, type Cluster, describeConfigError } from "../config.ts"
import { LoggingLive } from "../logging.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"

const HELP = `usage: vault-gateway keys <issue|list|revoke|rotate> [options]

Manages partner API keys in the gateway's database (DATABASE_URL, or the embedded PostgreSQL in
DATA_DIR; with the embedded one, run this while \`serve\` is stopped).

  issue --name <name> [--owner <wallet>] [--environment sandbox|devnet|mainnet]
        [--quota-limit <n> --quota-window-seconds <n>]
                     prints the new key's id and the key itself, once (only its hash is stored);
                     the environment defaults to the configured CLUSTER
  list [--json]      every key: id, name, environment, prefix...last4, owner, status
  revoke <id>        disables the key; every instance refuses it within 60 s
  rotate <id>        issues a replacement with the same settings and prints it once; the old
                     key stays valid for 60 s
`

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
const ENVIRONMENTS: ReadonlyArray<Cluster> = ["sandbox", "devnet", "mainnet"]

class UsageError extends Error {}

const positiveInt = (name: string, value: string | undefined): number | null => {
  if (value === undefined) return null
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a whole number >= 1`)
  return n
}

const statusOf = (record: PartnerKeyRecord, now: number): string =>
  record.revokedAt !== null
    ? `revoked ${record.revokedAt.toISOString()}`
    : record.expiresAt === null
    ? "active"
    : record.expiresAt.getTime() > now
    ? `expires ${record.expiresAt.toISOString()}`
    : `expired ${record.expiresAt.toISOString()}`

const line = (record: PartnerKeyRecord, now: number) =>
  [
    record.id,
    record.name,
    record.environment,
    `${record.prefix}...${record.last4}`,
    `owner=${record.ownerWallet ?? "-"}`,
    statusOf(record, now),
    `created=${record.createdAt.toISOString()}`
  ].join("  ")

const print = (text: string) => Effect.sync(() => process.stdout.write(text + "\n"))

/**
 * Starting the embedded PostgreSQL stops a server already running on the data directory, which
 * would pull the database from under a running `serve`; refuse instead.
 */
export const embeddedServerRunning = (dataDir: string): boolean => {
  const pidFile = path.join(dataDir, "postgres", "postmaster.pid")
  if (!fs.existsSync(pidFile)) return false
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0])
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** The program for one invocation; throws UsageError on bad arguments. */
const programFor = (args: ReadonlyArray<string>, cluster: Cluster) => {
  const [action, ...rest] = args
  switch (action) {
    case "issue": {
      const { values } = parseArgs({
        args: [...rest],
        options: {
          name: { type: "string" },
          owner: { type: "string" },
          environment: { type: "string" },
          "quota-limit": { type: "string" },
          "quota-window-seconds": { type: "string" }
        }
      })
      const name = values.name?.trim()
      if (name === undefined || name === "") throw new UsageError("issue needs --name <name>")
      if (values.owner !== undefined && !BASE58_ADDRESS.test(values.owner)) {
        throw new UsageError("--owner must be a base58 wallet address")
      }
      const environment = (values.environment ?? cluster) as Cluster
      if (!ENVIRONMENTS.includes(environment)) throw new UsageError("--environment must be sandbox, devnet or mainnet")
      const quotaLimit = positiveInt("quota-limit", values["quota-limit"])
      const quotaWindowSeconds = positiveInt("quota-window-seconds", values["quota-window-seconds"])
      return Effect.flatMap(PartnerKeys, (keys) =>
        keys.issue({ name, ownerWallet: values.owner ?? null, environment, quotaLimit, quotaWindowSeconds })
      ).pipe(
        Effect.flatMap(({ key, record }) =>
          print(`id: ${record.id}\nkey: ${Redacted.value(key)}\nStore the key now: it is shown only this once.`)
        )
      )
    }
    case "list": {
      const { values } = parseArgs({ args: [...rest], options: { json: { type: "boolean" } } })
      return Effect.flatMap(PartnerKeys, (keys) => keys.list).pipe(
        Effect.flatMap((records) => {
          const now = Date.now()
          if (values.json === true) return print(JSON.stringify(records))
          return print(records.length === 0 ? "no partner keys" : records.map((r) => line(r, now)).join("\n"))
        })
      )
    }
    case "revoke":
    case "rotate": {
      const { positionals } = parseArgs({ args: [...rest], allowPositionals: true, options: {} })
      if (positionals.length !== 1) throw new UsageError(`${action} needs exactly one key id`)
      const id = positionals[0]!
      return action === "revoke"
        ? Effect.flatMap(PartnerKeys, (keys) => keys.revoke(id)).pipe(Effect.flatMap((record) => print(`revoked ${record.id}`)))
        : Effect.flatMap(PartnerKeys, (keys) => keys.rotate(id)).pipe(
          Effect.flatMap(({ key, previous, record }) =>
            print(
              `id: ${record.id}\nkey: ${Redacted.value(key)}\nStore the key now: it is shown only this once.\n` +
                `The old key ${previous.id} stays valid until ${previous.expiresAt?.toISOString()}.`
            )
          )
        )
    }
    default:
      throw new UsageError(action === undefined ? "a keys action is required" : `unknown keys action '${action}'`)
  }
}

export const keys: Command = {
  run: async (args) => {
    if (args.length === 0 || args.includes("--help") || args.includes("-h")) {
      process.stdout.write(HELP)
      return args.length === 0 ? EXIT_USAGE : 0
    }
    const config = await Effect.runPromise(Effect.either(appConfig))
    if (Either.isLeft(config)) {
      process.stderr.write(`vault-gateway: ${describeConfigError(config.left)}\n`)
      return EXIT_USAGE
    }
    const settings = config.right
    let program
    try {
      program = programFor(args, settings.cluster)
    } catch (error) {
      process.stderr.write(`vault-gateway keys: ${error instanceof Error ? error.message : String(error)}\n${HELP}`)
      return EXIT_USAGE
    }
    if (Option.isNone(settings.databaseUrl) && embeddedServerRunning(settings.dataDir)) {
      process.stderr.write(
        `vault-gateway keys: the embedded PostgreSQL in ${settings.dataDir} is in use (is \`serve\` running?); ` +
          "stop it, or point DATABASE_URL at the server\n"
      )
      return 1
    }
    const database = DatabaseLive({ url: settings.databaseUrl, dataDir: settings.dataDir })
    const exit = await Effect.runPromiseExit(
      program.pipe(
        Effect.provide(PartnerKeysLive.pipe(Layer.provide(database))),
        Effect.provide(LoggingLive({ logFormat: settings.logFormat, logLevel: LogLevel.Warning }))
      )
    )
    if (Exit.isSuccess(exit)) return 0
    const failure = Cause.failureOption(exit.cause)
    process.stderr.write(
      `vault-gateway keys: ${failure._tag === "Some" ? failure.value.message : Cause.pretty(exit.cause)}\n`
    )
    return 1
  }
}

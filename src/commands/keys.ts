import { parseArgs } from "node:util"
import { Cause, Effect, Either, Exit, Layer, LogLevel, Option, Redacted } from "effect"
import { DatabaseLive } from "../../layers/postgres/Database.ts"
import { PartnerKeysLive } from "../../layers/postgres/PartnerKeysLive.ts"
import { type PartnerKeyRecord, PartnerKeys } from "../../services/PartnerKeys.ts"
import { appConfig, type Cluster, describeConfigError } from "../config.ts"
import { LoggingLive } from "../logging.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"
import { commandDatabaseUrl } from "./cliDatabase.ts"

const HELP = `usage: vault-gateway keys <issue|list|revoke|rotate> [options]

Manages partner API keys in the gateway's database: DATABASE_URL, or the embedded PostgreSQL in
DATA_DIR (that of a running \`serve\`, or started for the command).

  issue --name <name> [--owner <wallet>] [--environment sandbox|devnet|mainnet]
        [--quota-limit <n> --quota-window-seconds <n>]
                     prints the new key's id and the key itself, once (only its hash is stored);
                     the environment defaults to the configured CLUSTER; a quota needs both
                     the limit and the window (without them, KEY_QUOTA_LIMIT per
                     KEY_QUOTA_WINDOW_SECONDS)
  list [--json]      every key, under a header row: id, name, environment, prefix...last4,
                     owner, quota, status, created
  revoke <id>        disables the key; every instance refuses it at once (PostgreSQL NOTIFY),
                     within 15 s if a notification is lost
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

const HEADER = ["ID", "NAME", "ENVIRONMENT", "KEY", "OWNER", "QUOTA", "STATUS", "CREATED"]

const quotaOf = (record: PartnerKeyRecord): string =>
  record.quotaLimit === null || record.quotaWindowSeconds === null
    ? "default"
    : `${record.quotaLimit}/${record.quotaWindowSeconds}s`

const cells = (record: PartnerKeyRecord, now: number) => [
  record.id,
  record.name,
  record.environment,
  `${record.prefix}...${record.last4}`,
  record.ownerWallet ?? "-",
  quotaOf(record),
  statusOf(record, now),
  record.createdAt.toISOString()
]

/** Columns padded to their widest cell, under a header row. */
const table = (records: ReadonlyArray<PartnerKeyRecord>, now: number): string => {
  const rows = [HEADER, ...records.map((record) => cells(record, now))]
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()).join("\n")
}

const print = (text: string) => Effect.sync(() => process.stdout.write(text + "\n"))

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
      if ((quotaLimit === null) !== (quotaWindowSeconds === null)) {
        throw new UsageError("--quota-limit and --quota-window-seconds go together: a limit is per window")
      }
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
          return print(records.length === 0 ? "no partner keys" : table(records, now))
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
    const database = DatabaseLive({ url: commandDatabaseUrl(settings), dataDir: settings.dataDir })
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

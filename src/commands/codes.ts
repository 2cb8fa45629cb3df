import { isAddress, type Address } from "@solana/kit"
import { Effect, Either, Exit, Layer, LogLevel, Option } from "effect"
import { BuilderCodesLive } from "../../layers/postgres/BuilderCodesLive.ts"
import { DatabaseLive } from "../../layers/postgres/Database.ts"
import { BuilderCodes } from "../../services/BuilderCodes.ts"
import { appConfig, describeConfigError } from "../config.ts"
import { LoggingLive } from "../logging.ts"
import { isBuilderCode } from "../domain/builderCode.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"
import { commandDatabaseUrl } from "./cliDatabase.ts"
import { SqlClient } from "@effect/sql"

const HELP = `usage: vault-gateway codes <set|disable|list> ...

Manages builder codes in the gateway's database: DATABASE_URL, or the embedded PostgreSQL in
DATA_DIR (that of a running \`serve\`, or started for the command). Codes match without regard
to case. A running server answers with the change at once (GET /public/codes is cached by
clients for up to 60 s).

  set <CODE> <wallet>   creates the code, or points it at <wallet>, and enables it
  disable <CODE>        the code stops resolving (GET /public/codes/<CODE> answers 404)
  list                  every code, under a header row: code, wallet, enabled, last change
`

type Action =
  | { readonly kind: "set"; readonly code: string; readonly referrer: Address }
  | { readonly kind: "disable"; readonly code: string }
  | { readonly kind: "list" }

const parse = (args: ReadonlyArray<string>): Action | string => {
  const [action, code, wallet, ...extra] = args
  if (action === "list") return code === undefined ? { kind: "list" } : "list takes no arguments"
  if (code === undefined || !isBuilderCode(code)) return "a code is 1 to 64 letters, digits, '-' or '_'"
  if (action === "set") {
    if (wallet === undefined || !isAddress(wallet) || extra.length > 0) return "set needs <CODE> <wallet> (a base58 address)"
    return { kind: "set", code, referrer: wallet }
  }
  if (action === "disable") return wallet === undefined ? { kind: "disable", code } : "disable takes only <CODE>"
  return `unknown codes action '${action}'`
}

/** Every code, enabled or not, under a header row. */
const listCodes = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ code: string; referrer: string; enabled: boolean; updatedAt: Date }>`
    SELECT code, referrer_wallet AS referrer, enabled, updated_at AS "updatedAt" FROM builder_code ORDER BY lower(code)`
  if (rows.length === 0) return "no builder codes"
  const table = [["CODE", "WALLET", "ENABLED", "CHANGED"], ...rows.map((r) => [r.code, r.referrer, r.enabled ? "yes" : "no", new Date(r.updatedAt).toISOString()])]
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)))
  return table.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()).join("\n")
}).pipe(Effect.orDie)

export const codes: Command = {
  run: async (args) => {
    if (args.length === 0 || args.includes("--help") || args.includes("-h")) {
      process.stdout.write(HELP)
      return args.length === 0 ? EXIT_USAGE : 0
    }
    const action = parse(args)
    if (typeof action === "string") {
      process.stderr.write(`vault-gateway codes: ${action}\n${HELP}`)
      return EXIT_USAGE
    }
    const config = await Effect.runPromise(Effect.either(appConfig))
    if (Either.isLeft(config)) {
      process.stderr.write(`vault-gateway: ${describeConfigError(config.left)}\n`)
      return EXIT_USAGE
    }
    const settings = config.right
    const program: Effect.Effect<string | null, never, BuilderCodes | SqlClient.SqlClient> = action.kind === "list"
      ? listCodes
      : Effect.flatMap(BuilderCodes, (store) =>
        action.kind === "set"
          ? Effect.as(store.set(action.code, action.referrer), `${action.code} -> ${action.referrer}`)
          : Effect.map(store.disable(action.code), (found) => (found ? `${action.code} disabled` : null))
      )
    const database = DatabaseLive({ url: commandDatabaseUrl(settings), dataDir: settings.dataDir })
    const exit = await Effect.runPromiseExit(
      program.pipe(
        Effect.provide(BuilderCodesLive.pipe(Layer.provideMerge(database))),
        Effect.provide(LoggingLive({ logFormat: settings.logFormat, logLevel: LogLevel.Warning }))
      )
    )
    if (Exit.isFailure(exit)) {
      process.stderr.write(`vault-gateway codes: ${String(exit.cause)}\n`)
      return 1
    }
    if (exit.value === null) {
      process.stderr.write(`vault-gateway codes: no code ${"code" in action ? action.code : ""}\n`)
      return 1
    }
    process.stdout.write(`${exit.value}\n`)
    return 0
  }
}

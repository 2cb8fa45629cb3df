import { isAddress, type Address } from "@solana/kit"
import { Effect, Either, Exit, Layer, LogLevel, Option } from "effect"
import { BuilderCodesLive } from "../../layers/postgres/BuilderCodesLive.ts"
import { DatabaseLive } from "../../layers/postgres/Database.ts"
import { BuilderCodes } from "../../services/BuilderCodes.ts"
import { appConfig, describeConfigError } from "../config.ts"
import { LoggingLive } from "../logging.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"
import { embeddedServerRunning } from "./keys.ts"

const HELP = `usage: vault-gateway codes <set|disable> ...

Manages builder codes in the gateway's database (DATABASE_URL, or the embedded PostgreSQL in
DATA_DIR; with the embedded one, run this while \`serve\` is stopped). Codes match without regard
to case.

  set <CODE> <wallet>   creates the code, or points it at <wallet>, and enables it
  disable <CODE>        the code stops resolving (GET /public/codes/<CODE> answers 404)
`

/** Letters, digits, "-" and "_": a code travels in URLs and memos. */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

type Action = { readonly kind: "set"; readonly code: string; readonly referrer: Address } | { readonly kind: "disable"; readonly code: string }

const parse = (args: ReadonlyArray<string>): Action | string => {
  const [action, code, wallet, ...extra] = args
  if (code === undefined || !CODE_PATTERN.test(code)) return "a code is 1 to 64 letters, digits, '-' or '_'"
  if (action === "set") {
    if (wallet === undefined || !isAddress(wallet) || extra.length > 0) return "set needs <CODE> <wallet> (a base58 address)"
    return { kind: "set", code, referrer: wallet }
  }
  if (action === "disable") return wallet === undefined ? { kind: "disable", code } : "disable takes only <CODE>"
  return `unknown codes action '${action}'`
}

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
    if (Option.isNone(settings.databaseUrl) && embeddedServerRunning(settings.dataDir)) {
      process.stderr.write(`vault-gateway codes: the embedded PostgreSQL in ${settings.dataDir} is in use (is \`serve\` running?)\n`)
      return 1
    }
    const program = Effect.flatMap(BuilderCodes, (store) =>
      action.kind === "set"
        ? Effect.as(store.set(action.code, action.referrer), `${action.code} -> ${action.referrer}`)
        : Effect.map(store.disable(action.code), (found) => (found ? `${action.code} disabled` : null))
    )
    const exit = await Effect.runPromiseExit(
      program.pipe(
        Effect.provide(BuilderCodesLive.pipe(Layer.provide(DatabaseLive({ url: settings.databaseUrl, dataDir: settings.dataDir })))),
        Effect.provide(LoggingLive({ logFormat: settings.logFormat, logLevel: LogLevel.Warning }))
      )
    )
    if (Exit.isFailure(exit)) {
      process.stderr.write(`vault-gateway codes: ${String(exit.cause)}\n`)
      return 1
    }
    if (exit.value === null) {
      process.stderr.write(`vault-gateway codes: no code ${action.code}\n`)
      return 1
    }
    process.stdout.write(`${exit.value}\n`)
    return 0
  }
}

import { Console, Effect } from "effect"
import { decodeBase58Exact } from "../ntbundle/base58.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID } from "../sandbox/programs/ids.ts"
import type { ScenarioSandboxOptions } from "../sandbox/scenario/index.ts"
import { runMain } from "../runMain.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"
import { sandboxChainDir, scenarioSandboxScoped } from "./sandboxChain.ts"
import { SandboxJournal } from "../sandbox/journal.ts"

const HELP = `usage: vault-gateway sandbox [options]
       vault-gateway sandbox reset

Runs a local Solana cluster for the ntbundle program: JSON-RPC on --port, PubSub (WebSocket)
on --port + 1, until interrupted (Ctrl-C). This standalone sandbox keeps nothing on disk.

\`sandbox reset\` deletes the sandbox chain \`serve\` keeps in DATA_DIR/sandbox (it refuses while
a \`serve\` has the chain open): the next \`serve\` generates a new chain, and the gateway, seeing another
genesis, rebuilds its projection and history from it.

options:
  --host <address>      listen address (default 127.0.0.1)
  --port <n>            JSON-RPC port; PubSub uses n + 1 (default 8899; 0 picks free ports)
  --seed <seed>         seed of every deterministic choice (default 1)
  --slot-ms <ms>        slot time (default 400)
  --manual              advance slots only through sandbox_step
  --program-id <id>     program id hosted (default ${DEFAULT_NTBUNDLE_PROGRAM_ID})

scenario (the registry's vaults, users, builders, activity and a keeper; deterministic per seed):
  --users <n>           users (default 50)
  --builders <n>        builders (default 5)
  --activity <tx/s>     user transactions per second (default 1; 0 = none, the keeper still runs)
  --history-days <d>    days of history generated before the sandbox opens (default 0)
  --bulk-users <n>      extra positions written at genesis, up to 1,000,000 (benchmarks)
  --firehose            keeper charging fees across many positions every slot (>= 5,000 updates/s)
`

const VALUE_FLAGS = new Set([
  "--host",
  "--port",
  "--seed",
  "--slot-ms",
  "--program-id",
  "--users",
  "--builders",
  "--activity",
  "--history-days",
  "--bulk-users"
])

type Parsed = { readonly options: ScenarioSandboxOptions } | { readonly error: string }

const readInteger = (value: string, flag: string, min: number): number | string => {
  const parsed = Number(value)
  return Number.isSafeInteger(parsed) && parsed >= min ? parsed : `${flag} needs an integer >= ${min}, got '${value}'`
}

export const parseSandboxArgs = (args: ReadonlyArray<string>): Parsed => {
  const options: { -readonly [K in keyof ScenarioSandboxOptions]: ScenarioSandboxOptions[K] } = { port: 8899 }
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1
    const [flag, inline] = equals >= 0 ? [arg.slice(0, equals), arg.slice(equals + 1)] : [arg, undefined]
    if (flag === "--manual") {
      options.clock = "manual"
      continue
    }
    if (flag === "--firehose") {
      options.firehose = true
      continue
    }
    if (!VALUE_FLAGS.has(flag)) return { error: `unknown option '${arg}'` }
    const value = inline ?? args[++index]
    if (value === undefined) return { error: `${flag} needs a value` }
    switch (flag) {
      case "--host":
        options.host = value
        break
      case "--port": {
        const port = readInteger(value, flag, 0)
        if (typeof port === "string") return { error: port }
        if (port > 65534) return { error: "--port must leave room for PubSub on port + 1" }
        options.port = port
        break
      }
      case "--seed":
        options.seed = /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : value
        break
      case "--slot-ms": {
        const slotMs = readInteger(value, flag, 1)
        if (typeof slotMs === "string") return { error: slotMs }
        options.slotMs = slotMs
        break
      }
      case "--users":
      case "--builders":
      case "--history-days":
      case "--bulk-users": {
        const count = readInteger(value, flag, 0)
        if (typeof count === "string") return { error: count }
        if (flag === "--bulk-users" && count > 1_000_000) return { error: "--bulk-users is at most 1,000,000" }
        const key = ({ "--users": "users", "--builders": "builders", "--history-days": "historyDays", "--bulk-users": "bulkUsers" } as const)[flag]
        options[key] = count
        break
      }
      case "--activity": {
        const rate = Number(value)
        if (!Number.isFinite(rate) || rate < 0) return { error: `--activity needs transactions per second >= 0, got '${value}'` }
        options.activity = rate
        break
      }
      case "--program-id":
        if (decodeBase58Exact(value, 32) === undefined) return { error: `--program-id is not a base58 address: '${value}'` }
        options.programId = value
        break
      default:
        return { error: `unknown option '${arg}'` }
    }
  }
  return { options }
}

export const sandbox: Command = {
  run: async (args) => {
    if (args.includes("--help") || args.includes("-h")) {
      process.stdout.write(HELP)
      return 0
    }
    if (args[0] === "reset") {
      if (args.length > 1) {
        process.stderr.write(`vault-gateway sandbox reset: unexpected argument '${args[1]}'\n`)
        return EXIT_USAGE
      }
      const dir = sandboxChainDir(process.env.DATA_DIR || ".data")
      const owner = SandboxJournal.owner(dir)
      if (owner !== null) {
        process.stderr.write(`vault-gateway sandbox reset: the chain in ${dir} is in use by process ${owner} (\`serve\`); stop it first\n`)
        return 1
      }
      const existed = SandboxJournal.reset(dir)
      process.stdout.write(existed ? `removed the sandbox chain in ${dir}\n` : `no sandbox chain in ${dir}\n`)
      return 0
    }
    const parsed = parseSandboxArgs(args)
    if ("error" in parsed) {
      process.stderr.write(`vault-gateway sandbox: ${parsed.error}\n${HELP}`)
      return EXIT_USAGE
    }
    const program = Effect.scoped(
      Effect.gen(function* () {
        const { handle } = yield* scenarioSandboxScoped(parsed.options)
        yield* Console.log(`sandbox JSON-RPC: ${handle.rpcUrl}`)
        yield* Console.log(`sandbox PubSub:   ${handle.wsUrl}`)
        const { programId, seed, slotMs } = handle.chain
        yield* Console.log(`program ${programId}, seed ${String(seed)}, slot ${slotMs} ms (${handle.clockMode})`)
        return yield* Effect.never
      })
    )
    return runMain(program)
  }
}

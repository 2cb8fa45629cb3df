import { EXIT_USAGE, type Command } from "./commands/Command.ts"

interface Entry {
  readonly summary: string
  readonly load: () => Promise<Command>
}

// Subcommands load lazily so `inspect` does not pay for the server's imports.
const commands: Record<string, Entry> = {
  bench: {
    summary: "run the benchmarks (npm run bench)",
    load: async () => (await import("./commands/bench.ts")).bench
  },
  serve: {
    summary: "run the gateway (sandbox chain and embedded Postgres unless configured otherwise)",
    load: async () => (await import("./commands/serve.ts")).serve
  },
  inspect: {
    summary: "decode ntbundle account data, events and transactions offline (JSON on stdout)",
    load: async () => (await import("./commands/inspect.ts")).inspect
  },
  codes: {
    summary: "set, disable and list builder codes (what /public/codes resolves)",
    load: async () => (await import("./commands/codes.ts")).codes
  },
  keys: {
    summary: "issue, list, revoke and rotate partner API keys",
    load: async () => (await import("./commands/keys.ts")).keys
  },
  sandbox: {
    summary: "run the local Solana sandbox chain (JSON-RPC on --port, PubSub on --port + 1); `sandbox reset` starts serve's chain over",
    load: async () => (await import("./commands/sandbox.ts")).sandbox
  }
}

const usage = (): string =>
  [
    "usage: vault-gateway <command> [options]",
    "",
    "commands:",
    ...Object.entries(commands).map(([name, entry]) => `  ${name.padEnd(10)} ${entry.summary}`),
    "",
    "Run `vault-gateway <command> --help` for a command's options, `vault-gateway --version` for the version."
  ].join("\n")

const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const [name, ...rest] = argv
  if (name === "--version" || name === "-V" || name === "version") {
    process.stdout.write(`vault-gateway ${(await import("./version.ts")).VERSION}\n`)
    return 0
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage() + "\n")
    return name === undefined ? EXIT_USAGE : 0
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (entry === undefined) {
    process.stderr.write(`vault-gateway: unknown command '${name}'\n${usage()}\n`)
    return EXIT_USAGE
  }
  const command = await entry.load()
  return command.run(rest)
}

process.exitCode = await main(process.argv.slice(2))

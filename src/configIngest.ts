import { Config, type Option } from "effect"
import type { Cluster } from "./config.ts"

const MAINNET_PROGRAM_ID = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"
const DEVNET_PROGRAM_ID = "CcR9whVnaW3STx6LLYotwy5JJXmnC8KDjtRotA3NCL8v"

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

const positiveInt = (name: string, fallback: number, min = 1) =>
  Config.integer(name).pipe(
    Config.validate({ message: `Expected a whole number >= ${min}`, validation: (n) => n >= min }),
    Config.withDefault(fallback)
  )

const nonNegative = (name: string, fallback: number) => positiveInt(name, fallback, 0)

/** How the gateway follows the chain: program, checkpoints, lag bound, history backfill. */
export interface IngestConfig {
  readonly programId: string
  readonly checkpointSeconds: number
  readonly maxLagSlots: number
  /** Unix seconds; history before it is not backfilled. None = the program's whole history. */
  readonly historySince: Option.Option<number>
}

export const ingestConfig = (cluster: Cluster): Config.Config<IngestConfig> =>
  Config.all({
    programId: Config.string("PROGRAM_ID").pipe(
      Config.validate({ message: "Expected a base58 program address", validation: (v) => BASE58_ADDRESS.test(v) }),
      Config.withDefault(cluster === "devnet" ? DEVNET_PROGRAM_ID : MAINNET_PROGRAM_ID)
    ),
    checkpointSeconds: positiveInt("CHECKPOINT_SECONDS", 5),
    maxLagSlots: positiveInt("MAX_LAG_SLOTS", 150),
    historySince: Config.option(
      Config.string("HISTORY_SINCE").pipe(
        Config.validate({ message: "Expected a date such as 2026-01-31", validation: (v) => !Number.isNaN(Date.parse(v)) }),
        Config.map((v) => Math.floor(Date.parse(v) / 1000))
      )
    )
  })

/** The local chain `serve` runs when no RPC endpoint is configured. */
export interface SandboxConfig {
  readonly seed: number
  readonly users: number
  readonly builders: number
  /** User transactions per second; 0 = none (the keeper still runs). */
  readonly activity: number
  readonly historyDays: number
  readonly slotMs: number
  /** 0 picks a free port (PubSub listens on the next one). */
  readonly rpcPort: number
}

export const sandboxConfig: Config.Config<SandboxConfig> = Config.all({
  seed: nonNegative("SANDBOX_SEED", 1),
  users: nonNegative("SANDBOX_USERS", 200),
  builders: nonNegative("SANDBOX_BUILDERS", 8),
  activity: Config.number("SANDBOX_ACTIVITY").pipe(
    Config.validate({ message: "Expected transactions per second >= 0", validation: (n) => n >= 0 }),
    Config.withDefault(2)
  ),
  historyDays: nonNegative("SANDBOX_HISTORY_DAYS", 30),
  slotMs: positiveInt("SANDBOX_SLOT_MS", 400, 10),
  rpcPort: Config.integer("SANDBOX_RPC_PORT").pipe(
    Config.validate({ message: "Expected a port from 0 to 65534", validation: (p) => p >= 0 && p <= 65534 }),
    Config.withDefault(0)
  )
})


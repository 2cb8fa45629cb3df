import { tmpdir } from "node:os"
import type { VaultConfig } from "./vaultGenesis.ts"

/**
 * Scenario knobs. Everything a scenario creates or does is drawn from a PRNG seeded with the
 * chain's seed, so the same knobs give the same wallets, vaults, balances and activity.
 */
export interface ScenarioOptions {
  /** Wallets that deposit and withdraw (role "user"). */
  readonly users?: number
  /** Wallets that register as referrers on some launched vaults (role "builder"). */
  readonly builders?: number
  /** User transactions per second of chain time once live (0: none; the keeper still runs). */
  readonly activity?: number
  /** Fraction of users who open a first position during setup (half of them attributed). */
  readonly initialPositions?: number
  /**
   * Days of history: the chain's genesis is placed this far in the past and fast-forwarded at
   * start, one `historyStepSeconds` slot at a time, with the keeper and activity running, so that
   * daily history exists when the sandbox opens. Create the chain with `scenarioChainOptions`.
   */
  readonly historyDays?: number
  readonly historyStepSeconds?: number
  /** User transactions per simulated day of history. */
  readonly historyActionsPerDay?: number
  /** Keeper schedule: each vault is run every this many slots (of the live slot time). */
  readonly keeperIntervalSlots?: number
  /** Positions charged fees per keeper run and vault (round robin); in firehose mode derived from the target rate. */
  readonly feePositionsPerRun?: number
  /** Extra positions written directly at genesis (benchmarks), spread over the launched vaults. */
  readonly bulkUsers?: number
  /** Directory caching the bulk positions' addresses between runs (default: the OS temp directory); false: none. */
  readonly bulkCacheDirectory?: string | false
  /** Keeper charging fees across many positions every slot (benchmarks: ≥ 5,000 account updates/s). */
  readonly firehose?: boolean
  /** The firehose's target, in account updates per second (default 6,000). */
  readonly firehoseUpdatesPerSecond?: number
  /** Registry vault ids to create (default: every vault of the registry on the main program layout). */
  readonly vaultIds?: ReadonlyArray<number>
  /** Adjusts a vault's generated configuration (tests: short cooldowns, caps, ...). */
  readonly configureVault?: (config: VaultConfig, registryId: number) => VaultConfig
}

export type ResolvedScenarioOptions = Required<Omit<ScenarioOptions, "vaultIds" | "configureVault" | "bulkCacheDirectory" | "feePositionsPerRun">> &
  Pick<ScenarioOptions, "vaultIds" | "configureVault" | "feePositionsPerRun"> & { readonly bulkCacheDirectory: string | undefined }

export const resolveScenarioOptions = (options: ScenarioOptions): ResolvedScenarioOptions => {
  const users = options.users ?? 50
  return {
    users,
    builders: options.builders ?? 5,
    activity: options.activity ?? 1,
    initialPositions: options.initialPositions ?? 0.5,
    historyDays: options.historyDays ?? 0,
    historyStepSeconds: options.historyStepSeconds ?? 3_600,
    historyActionsPerDay: options.historyActionsPerDay ?? Math.max(24, users * 2),
    keeperIntervalSlots: options.keeperIntervalSlots ?? 25,
    ...(options.feePositionsPerRun === undefined ? {} : { feePositionsPerRun: options.feePositionsPerRun }),
    firehoseUpdatesPerSecond: options.firehoseUpdatesPerSecond ?? 6_000,
    bulkUsers: options.bulkUsers ?? 0,
    bulkCacheDirectory: options.bulkCacheDirectory === false ? undefined : (options.bulkCacheDirectory ?? tmpdir()),
    firehose: options.firehose ?? false,
    ...(options.vaultIds === undefined ? {} : { vaultIds: options.vaultIds }),
    ...(options.configureVault === undefined ? {} : { configureVault: options.configureVault })
  }
}

const DAY_MS = 86_400_000

/**
 * Where a scenario's history begins: `historyDays` whole UTC days before the start of the UTC day
 * of `nowMs`. Only the day counts, not the time of day, so the same seed on the same day generates
 * the same history (the same slots, the same activity, the same closing prices).
 */
export const historyStartMs = (options: { readonly historyDays?: number }, nowMs: number): number =>
  Math.floor(nowMs / DAY_MS) * DAY_MS - Math.round((options.historyDays ?? 0) * DAY_MS)

/**
 * The chain options a scenario with `historyDays` needs: genesis at `historyStartMs`, and a genesis
 * hash that follows from the seed, the knobs and the start instant: two starts on the same day share
 * their history through the last completed day but not today's, so they are different chains (a
 * gateway must not resume one's checkpoint on the other).
 */
export const scenarioChainOptions = (
  options: ScenarioOptions & { readonly seed?: unknown; readonly programId?: string; readonly slotMs?: number },
  nowMs: number = Date.now()
): { readonly genesisUnixMs?: number; readonly runId?: string } => {
  const runId = `scenario/v1/${nowMs}/${scenarioKnobs(options)}`
  // without history the tip starts at now, behind the default 32 slots of finality lag
  if ((options.historyDays ?? 0) <= 0) return { genesisUnixMs: nowMs - 32 * (options.slotMs ?? 400), runId }
  return { genesisUnixMs: historyStartMs(options, nowMs), runId }
}

/** The settings that shape a scenario chain, as text: the same text and start instant, the same chain. */
export const scenarioKnobs = (options: ScenarioOptions & { readonly seed?: unknown; readonly programId?: string; readonly slotMs?: number }): string => {
  const resolved = resolveScenarioOptions(options)
  return [
    String(options.seed ?? ""),
    options.programId ?? "",
    options.slotMs ?? "",
    resolved.users,
    resolved.builders,
    resolved.activity,
    resolved.initialPositions,
    resolved.historyDays,
    resolved.historyStepSeconds,
    resolved.historyActionsPerDay,
    resolved.keeperIntervalSlots,
    resolved.bulkUsers,
    resolved.firehose,
    (resolved.vaultIds ?? []).join(",")
  ].join("/")
}

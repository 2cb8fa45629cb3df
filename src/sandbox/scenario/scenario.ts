import type { SandboxChain } from "../chain.ts"
import { createRandom } from "../crypto/random.ts"
import { Keeper } from "../ntbundle/keeper.ts"
import { KeeperIndex } from "../ntbundle/keeperIndex.ts"
import { DISCRIMINATOR, hasDiscriminator, isZeroKeyAt, USER_REFERRER_OFFSET, userBundleView } from "../ntbundle/layout.ts"
import { createNtbundleProgram } from "../ntbundle/program.ts"
import { installPriceFeeds, type SandboxPriceFeeds } from "../pyth/priceFeeds.ts"
import { ScenarioActions } from "./actions.ts"
import { Activity } from "./activity.ts"
import { writeBulkPositions, type BulkReport } from "./bulk.ts"
import { resolveScenarioOptions, type ResolvedScenarioOptions, type ScenarioOptions } from "./config.ts"
import { writeGenesis, type Genesis } from "./genesis.ts"
import type { Person } from "./people.ts"
import { runSetup } from "./setup.ts"

/**
 * A seeded scenario on a sandbox chain: hosts the ntbundle program model, writes genesis (mints,
 * registry vaults, wallets with balances), onboards builders and first depositors with real
 * transactions, optionally writes bulk positions, then runs on the chain's slot hook: the keeper
 * on each vault's schedule and user activity at the configured rate. With `historyDays`, call
 * `fastForward()` before opening the sandbox: the chain (created with `scenarioChainOptions`)
 * starts that many days in the past and is advanced to now, one history step per slot.
 */
export interface Scenario extends Genesis {
  readonly chain: SandboxChain
  readonly options: ResolvedScenarioOptions
  readonly index: KeeperIndex
  readonly keeperBot: Keeper
  readonly activity: Activity
  readonly actions: ScenarioActions
  /** Builders whose registration landed, by vault. */
  readonly buildersByVault: ReadonlyMap<string, ReadonlyArray<Person>>
  readonly bulk: BulkReport | undefined
  /** The Pyth price feed accounts of the deposit tokens, with moving prices. */
  readonly prices: SandboxPriceFeeds
  /** Advances a chain whose genesis is in the past to `untilMs` (default: now) with history pacing. */
  readonly fastForward: (untilMs?: number) => void
  /** Ground truth: every position bound to a builder, from the ledger. */
  readonly referredPositions: () => Array<{ readonly address: string; readonly owner: string; readonly referrer: string }>
  /** Unhooks the keeper and the activity from the slot clock. */
  readonly stop: () => void
}

export const installScenario = (chain: SandboxChain, scenarioOptions: ScenarioOptions = {}): Scenario => {
  const options = resolveScenarioOptions(scenarioOptions)
  const random = createRandom(chain.seed, "scenario")
  chain.registerProgram(createNtbundleProgram({ programId: chain.programId }))
  const genesis = writeGenesis(chain, options, random)
  const prices = installPriceFeeds(chain, random.fork("prices"))
  const vaultAddresses = genesis.vaults.map((vault) => vault.config.address)
  const index = new KeeperIndex(chain.ledger, chain.programId, vaultAddresses)
  const slotSeconds = chain.slotMs / 1000
  // Each fee charge writes about 1.2 accounts (the position, sometimes its builder, the vault once per
  // transaction); bulk positions, the bulk of the work, sit on the launched vaults.
  const chargedVaults = Math.max(1, genesis.vaults.filter((vault) => vault.launched).length)
  const firehoseCharges = Math.ceil((options.firehoseUpdatesPerSecond * slotSeconds) / (1.2 * chargedVaults))
  const keeperBot = new Keeper(chain, {
    keeper: genesis.keeper,
    vaults: vaultAddresses,
    index,
    random: random.fork("keeper"),
    intervalSeconds: options.firehose ? slotSeconds : options.keeperIntervalSlots * slotSeconds,
    feePositionsPerRun: options.feePositionsPerRun ?? (options.firehose ? firehoseCharges : 32),
    // Live, a slot's keeper work must fit in the slot, or the clock falls behind; vaults left over run next slot.
    ...(options.firehose ? { wallBudgetMs: chain.slotMs * 0.8 } : {}),
    maxDepositsPerRun: 256,
    maxPayoutsPerRun: 64,
    feesPerTransaction: 8
  })
  const actions = new ScenarioActions(chain)
  const buildersByVault = new Map<string, Array<Person>>()
  const activity = new Activity(chain, actions, genesis.people, random.fork("activity"), buildersByVault)
  runSetup({ chain, genesis, actions, activity, keeper: keeperBot, buildersByVault, initialPositions: options.initialPositions }, random.fork("setup"))
  const bulk = options.bulkUsers > 0 ? writeBulkPositions(chain, { count: options.bulkUsers, vaults: genesis.vaults, buildersByVault, index, cacheDirectory: options.bulkCacheDirectory }, random.fork("bulk")) : undefined

  let inHistory = false
  const unhook = chain.scheduler.onSlot((slot) => {
    keeperBot.runDue()
    const seconds = (chain.ledger.clock.unixMs(slot) - chain.ledger.clock.unixMs(slot - 1)) / 1000
    activity.actFor(inHistory ? options.historyActionsPerDay / 86_400 : options.activity, seconds)
  })

  const fastForward = (untilMs: number = Date.now()): void => {
    const stepMs = options.historyStepSeconds * 1000
    inHistory = true
    keeperBot.setWallBudget(false)
    try {
      while (chain.ledger.clock.unixMs() + stepMs <= untilMs) chain.step(1, stepMs)
      const rest = untilMs - chain.ledger.clock.unixMs()
      if (rest > 0) chain.step(1, rest)
    } finally {
      inHistory = false
      keeperBot.setWallBudget(true)
    }
  }

  const referredPositions = () => {
    const out: Array<{ address: string; owner: string; referrer: string }> = []
    for (const [address, record] of chain.ledger.accounts.ownedBy(chain.programId)) {
      if (!hasDiscriminator(record.data, DISCRIMINATOR.UserBundleAccount) || isZeroKeyAt(record.data, USER_REFERRER_OFFSET)) continue
      const view = userBundleView(record.data)
      out.push({ address, owner: view.owner, referrer: view.referrer })
    }
    return out
  }

  return {
    ...genesis,
    chain,
    options,
    index,
    keeperBot,
    activity,
    actions,
    buildersByVault,
    bulk,
    prices,
    fastForward,
    referredPositions,
    stop: () => {
      unhook()
      prices.stop()
      index.close()
    }
  }
}

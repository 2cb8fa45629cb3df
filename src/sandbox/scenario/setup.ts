import type { SandboxChain } from "../chain.ts"
import type { Random } from "../crypto/random.ts"
import type { SendOutcome } from "../runtime/processor.ts"
import type { Keeper } from "../ntbundle/keeper.ts"
import type { ScenarioActions } from "./actions.ts"
import type { Activity } from "./activity.ts"
import type { Genesis } from "./genesis.ts"
import type { Person } from "./people.ts"

/**
 * The scenario's opening moves, as signed transactions: builders deposit on their vaults and
 * register (in one transaction when the vault's builder minimum is already met, otherwise after
 * the keeper has processed their deposit), then a share of the users open a first position.
 * A slot passes between phases, and the keeper runs every vault after each deposit phase.
 */
const landed = (outcome: SendOutcome | undefined): boolean => outcome?.kind === "landed" && outcome.result.err === null

export const runSetup = (
  input: {
    readonly chain: SandboxChain
    readonly genesis: Genesis
    readonly actions: ScenarioActions
    readonly activity: Activity
    readonly keeper: Keeper
    readonly buildersByVault: Map<string, Array<Person>>
    readonly initialPositions: number
  },
  random: Random
): void => {
  const { chain, genesis, actions, keeper, buildersByVault } = input
  const runKeeper = (): void => {
    chain.step(1)
    for (const vault of genesis.vaults) keeper.runVault(vault.config.address)
    chain.step(1)
  }
  const registered = (builder: Person, vault: string): void => {
    const list = buildersByVault.get(vault) ?? []
    list.push(builder)
    buildersByVault.set(vault, list)
  }

  const awaitingNetting: Array<readonly [Person, string]> = []
  for (const builder of genesis.people.builders) {
    for (const planned of builder.vaults) {
      const vault = actions.vault(planned.config.address)
      if (vault === null) continue
      const minimum = vault.bundle.minDepositAmount > 0n ? vault.bundle.minDepositAmount : 1n
      const balance = builder.balances.get(vault.bundle.assetAddress) ?? 0n
      const wanted = (balance * BigInt(random.int(5, 30))) / 100n
      const { outcome, registered: done } = actions.registerBuilder(builder.keypair, vault, wanted > minimum ? wanted : minimum)
      if (done && landed(outcome)) registered(builder, planned.config.address)
      else if (!done && landed(outcome)) awaitingNetting.push([builder, planned.config.address])
    }
  }
  runKeeper()
  for (const [builder, address] of awaitingNetting) {
    const vault = actions.vault(address)
    if (vault !== null && landed(actions.registerBuilder(builder.keypair, vault).outcome)) registered(builder, address)
  }
  chain.step(1)

  for (const user of genesis.people.users) {
    if (!random.chance(input.initialPositions)) continue
    const planned = user.vaults[0]
    const vault = planned === undefined ? null : actions.vault(planned.config.address)
    const balance = vault === null ? 0n : (user.balances.get(vault.bundle.assetAddress) ?? 0n)
    if (vault === null || balance === 0n) continue
    const amount = (balance * BigInt(random.int(10, 50))) / 100n
    if (amount >= vault.bundle.minDepositAmount) input.activity.firstDeposit(user, vault, amount)
  }
  runKeeper()
}

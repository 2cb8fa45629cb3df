import type { RegistryVault } from "../../ntbundle/registry.ts"
import { DEPOSIT_TOKEN_SYMBOLS, tokenBySymbol } from "../../ntbundle/tokens.ts"
import type { SandboxChain } from "../chain.ts"
import { deterministicKeypair, type Keypair } from "../crypto/keypair.ts"
import type { Random } from "../crypto/random.ts"
import { planPeople, type People } from "./people.ts"
import { TokenGenesis } from "./tokenGenesis.ts"
import { vaultAccounts } from "./vaultGenesis.ts"
import { planVaults, type PlannedVault } from "./vaultPlan.ts"
import type { ResolvedScenarioOptions } from "./config.ts"

/**
 * The scenario's state at genesis, written directly (no transactions): the token table's mints
 * (faucet as mint authority, supply = the balances written), the registry vaults with their
 * seed liquidity, the wallets' SOL and token balances; and the wallets registered for
 * sandbox_wallets.
 */
export interface Genesis {
  readonly keeper: Keypair
  readonly managers: ReadonlyMap<string, Keypair>
  readonly vaults: ReadonlyArray<PlannedVault>
  readonly people: People
}

const SOL = 1_000_000_000n

export const writeGenesis = (chain: SandboxChain, options: ResolvedScenarioOptions, random: Random): Genesis => {
  const seed = chain.seed
  const keeper = deterministicKeypair(seed, "keeper")
  const managers = new Map<string, Keypair>()
  const managerOf = (vault: RegistryVault): string => {
    const manager = deterministicKeypair(seed, `manager/${vault.id}`)
    managers.set(vault.address, manager)
    return manager.address
  }
  const vaults = planVaults(random.fork("vaults"), {
    keeper: keeper.address,
    managerOf,
    ...(options.vaultIds === undefined ? {} : { vaultIds: options.vaultIds }),
    ...(options.configureVault === undefined ? {} : { configure: options.configureVault })
  })
  const people = planPeople(seed, random.fork("people"), { users: options.users, builders: options.builders }, vaults)

  const tokens = new TokenGenesis()
  for (const symbol of DEPOSIT_TOKEN_SYMBOLS) {
    const token = tokenBySymbol("mainnet", symbol)
    tokens.addMint({ address: token.mint, decimals: token.decimals, mintAuthority: chain.faucet.address })
  }
  const now = BigInt(chain.ledger.clock.blockTime())
  const programAccounts = vaults.flatMap((vault) => vaultAccounts(chain.programId, vault.config, tokens, now))
  tokens.fund(keeper.address, 1_000_000n * SOL)
  for (const manager of managers.values()) tokens.fund(manager.address, 100n * SOL)
  for (const person of [...people.users, ...people.builders]) {
    tokens.fund(person.keypair.address, 10n * SOL)
    for (const [mint, amount] of person.balances) tokens.credit(person.keypair.address, mint, amount)
  }
  chain.ledger.writeAccounts([...tokens.states(), ...programAccounts])

  chain.wallets.add(keeper, "keeper")
  for (const manager of managers.values()) chain.wallets.add(manager, "manager")
  for (const user of people.users) chain.wallets.add(user.keypair, "user")
  for (const builder of people.builders) chain.wallets.add(builder.keypair, "builder")
  return { keeper, managers, vaults, people }
}

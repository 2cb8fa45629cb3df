import { deterministicKeypair, type Keypair } from "../crypto/keypair.ts"
import type { Random, Seed } from "../crypto/random.ts"
import type { PlannedVault } from "./vaultPlan.ts"

/**
 * The scenario's wallets: users with token balances in the mints of the vaults they use, and
 * builders who will register on some launched vaults. Balances are log-uniform in USD terms, with
 * a few whales so that builders can climb the referral ladder.
 */
export interface Person {
  readonly keypair: Keypair
  /** Vaults this wallet acts on (users deposit there; builders register there). */
  readonly vaults: ReadonlyArray<PlannedVault>
  /** Token balances at genesis, by mint. */
  readonly balances: ReadonlyMap<string, bigint>
}

export interface People {
  readonly users: ReadonlyArray<Person>
  readonly builders: ReadonlyArray<Person>
}

const logUniformUsd = (random: Random, min: number, max: number): bigint => BigInt(Math.round(Math.exp(Math.log(min) + random.nextFloat() * (Math.log(max) - Math.log(min)))))

const sample = <T>(random: Random, items: ReadonlyArray<T>, count: number): Array<T> => {
  const pool = [...items]
  const out: Array<T> = []
  while (out.length < count && pool.length > 0) out.push(pool.splice(random.int(0, pool.length - 1), 1)[0]!)
  return out
}

const balancesFor = (random: Random, vaults: ReadonlyArray<PlannedVault>, minUsd: number, maxUsd: number): Map<string, bigint> => {
  const balances = new Map<string, bigint>()
  for (const vault of vaults) {
    if (balances.has(vault.config.mint)) continue
    balances.set(vault.config.mint, logUniformUsd(random, minUsd, maxUsd) * 10n ** BigInt(vault.config.decimals))
  }
  return balances
}

export const planPeople = (seed: Seed, random: Random, counts: { readonly users: number; readonly builders: number }, vaults: ReadonlyArray<PlannedVault>): People => {
  const launched = vaults.filter((vault) => vault.launched)
  const users = Array.from({ length: counts.users }, (_, index): Person => {
    const pick = random.fork(`user/${index}`)
    const whale = pick.chance(0.05)
    // Launched vaults are where the flows are: two out of three picks come from them.
    const choices = sample(pick, launched.length > 0 && pick.chance(0.67) ? launched : vaults, pick.int(1, 3))
    return { keypair: deterministicKeypair(seed, `user/${index}`), vaults: choices, balances: balancesFor(pick, choices, whale ? 1_000_000 : 1_000, whale ? 8_000_000 : 500_000) }
  })
  const builders = Array.from({ length: counts.builders }, (_, index): Person => {
    const pick = random.fork(`builder/${index}`)
    const choices = sample(pick, launched, pick.int(1, Math.min(4, launched.length)))
    return { keypair: deterministicKeypair(seed, `builder/${index}`), vaults: choices, balances: balancesFor(pick, choices, 20_000, 200_000) }
  })
  return { users, builders }
}

import type { ReferralTier } from "../../ntbundle/accounts.ts"
import { registryVaults, type RegistryVault } from "../../ntbundle/registry.ts"
import type { Random } from "../crypto/random.ts"
import type { VaultConfig } from "./vaultGenesis.ts"

/**
 * The scenario's vaults: the public registry's Bundle vaults on the main program layout, at their
 * registry addresses, with their names and deposit mints. Launched vaults (`pointsEnabled`) get
 * referrals with the standard ladder (management-fee share 10/20/30/40/50 % at referred net
 * deposits of $10k/$500k/$3M/$5M/$10M in the asset's minor units, performance-fee share 0) and a
 * 1 % management fee; fees, minimums, cooldowns and the seed liquidity vary with the seed.
 * Registry vault 76 (Neutral Autopilot) uses its known live terms.
 */
export interface PlannedVault {
  readonly registry: RegistryVault
  readonly config: VaultConfig
  readonly launched: boolean
}

const LADDER_USD: ReadonlyArray<readonly [bigint, number]> = [
  [10_000n, 1000],
  [500_000n, 2000],
  [3_000_000n, 3000],
  [5_000_000n, 4000],
  [10_000_000n, 5000]
]

export const standardLadder = (decimals: number): Array<ReferralTier> =>
  LADDER_USD.map(([usd, mfeeBps]) => ({ threshold: usd * 10n ** BigInt(decimals), pfeeBps: 0, mfeeBps }))

const AUTOPILOT_ID = 76

export const scenarioRegistryVaults = (vaultIds?: ReadonlyArray<number>): ReadonlyArray<RegistryVault> =>
  registryVaults("mainnet").filter((vault) => vault.mainLayout && (vaultIds === undefined || vaultIds.includes(vault.id)))

export const planVaults = (
  random: Random,
  input: { readonly keeper: string; readonly managerOf: (vault: RegistryVault) => string; readonly vaultIds?: ReadonlyArray<number>; readonly configure?: (config: VaultConfig, id: number) => VaultConfig }
): Array<PlannedVault> =>
  scenarioRegistryVaults(input.vaultIds).map((registry) => {
    const pick = random.fork(`vault/${registry.id}`)
    const unit = 10n ** BigInt(registry.token.decimals)
    const launched = registry.pointsEnabled
    const autopilot = registry.id === AUTOPILOT_ID
    const seedUnderlying = BigInt(pick.int(200, 5_000)) * 1_000n * unit
    const config: VaultConfig = {
      address: registry.address,
      name: registry.name,
      mint: registry.token.mint,
      decimals: registry.token.decimals,
      manager: input.managerOf(registry),
      keeper: input.keeper,
      depositFeeBps: autopilot ? 0 : pick.pick([0, 10, 25, 50]),
      withdrawalFeeBps: autopilot ? 30 : pick.pick([0, 10, 30, 50]),
      performanceFeeBps: launched ? 0 : pick.pick([0, 1000, 2000]),
      managementFeeBps: launched ? 100 : pick.pick([0, 100, 200]),
      minDepositAmount: autopilot ? 5n * unit : BigInt(pick.pick([1, 5, 10, 50])) * unit,
      maxDepositAmount: 0n,
      withdrawalDelaySeconds: BigInt(pick.pick([0, 0, 0, 3_600])),
      withdrawalTMinSeconds: BigInt(pick.pick([60, 300, 900])),
      withdrawalTMaxSeconds: BigInt(pick.pick([3_600, 21_600, 86_400])),
      withdrawalCurve: pick.pick([0.5, 1, 2]),
      oracleMaxAgeSeconds: 86_400n,
      oracleUpdateTimeLimitSeconds: 0n,
      oracleBufferBps: 2_000n,
      referral: launched ? { minDepositAmount: autopilot ? 0n : BigInt(pick.pick([0, 0, 100, 1_000])) * unit, tiers: standardLadder(registry.token.decimals) } : null,
      seedUnderlying,
      seedExternalEquity: (seedUnderlying * BigInt(pick.int(0, 30))) / 100n
    }
    return { registry, config: input.configure === undefined ? config : input.configure(config, registry.id), launched }
  })

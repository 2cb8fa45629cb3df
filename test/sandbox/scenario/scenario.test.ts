import type { Address } from "@solana/kit"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { decodeBundle, decodeUserBundleAccount } from "../../../src/ntbundle/accounts.ts"
import { deriveBundleAccounts, findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import { registryVaults } from "../../../src/ntbundle/registry.ts"
import { keypairFromSecretKey } from "../../../src/sandbox/crypto/keypair.ts"
import { decodeBase58 } from "../../../src/ntbundle/base58.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { installScenario } from "../../../src/sandbox/scenario/scenario.ts"
import { standardLadder } from "../../../src/sandbox/scenario/vaultPlan.ts"

const VAULTS = [60, 67, 76, 49]
const make = (seed: number, runId = "scenario-test") => {
  const chain = createSandboxChain({ seed, runId, genesisUnixMs: 1_790_000_000_000 })
  const scenario = installScenario(chain, { users: 12, builders: 3, activity: 2, vaultIds: VAULTS })
  return { chain, scenario }
}

describe("scenario genesis and setup", () => {
  it("creates the registry's vaults at their addresses with their PDAs, mints and terms", () => {
    const { chain, scenario } = make(3)
    expect(scenario.vaults.map((vault) => vault.registry.id).sort()).toEqual([...VAULTS].sort())
    for (const planned of scenario.vaults) {
      const registry = registryVaults("mainnet").find((vault) => vault.id === planned.registry.id)!
      const bundle = Either.getOrThrow(decodeBundle(chain.ledger.getAccount(registry.address)!.data))
      expect(bundle.assetAddress).toBe(registry.token.mint)
      expect(bundle.keeper).toBe(scenario.keeper.address)
      const derived = deriveBundleAccounts(chain.programId as Address, registry.address, registry.token.mint)
      for (const address of [derived.oracleData, derived.bundleTempData, derived.pendingDepositTokenAccount, derived.bundleAssetTokenAccount]) {
        expect(chain.ledger.getAccount(address)).toBeDefined()
      }
      expect(bundle.referrerEnabled).toBe(registry.pointsEnabled)
      if (registry.pointsEnabled) {
        expect(bundle.managementFeeBps).toBe(100)
        expect(bundle.tierCount).toBe(5)
        expect(bundle.referralTiers).toEqual(standardLadder(registry.token.decimals))
      }
    }
    const autopilot = Either.getOrThrow(decodeBundle(chain.ledger.getAccount("J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ")!.data))
    expect(autopilot).toMatchObject({ minDepositAmount: 5_000_000n, withdrawalFee: 30, performanceFee: 0, referrerMinDepositAmount: 0n })
    expect(checkInvariants(chain.ledger, chain.programId)).toEqual([])
  })

  it("registers every wallet with a secret key that signs as it", () => {
    const { chain, scenario } = make(3)
    const wallets = chain.wallets.toJson()
    const roles = (role: string) => wallets.filter((wallet) => wallet.role === role).length
    expect(roles("user")).toBe(12)
    expect(roles("builder")).toBe(3)
    expect(roles("keeper")).toBe(1)
    expect(roles("manager")).toBe(VAULTS.length)
    for (const wallet of wallets) expect(keypairFromSecretKey(decodeBase58(wallet.secretKey)!).address).toBe(wallet.address)
    expect(wallets.find((wallet) => wallet.role === "keeper")?.address).toBe(scenario.keeper.address)
  })

  it("onboards builders and first depositors with real transactions, some attributed", () => {
    const { chain, scenario } = make(5)
    const registered = Array.from(scenario.buildersByVault.values()).flat()
    expect(registered.length).toBeGreaterThan(0)
    const referred = scenario.referredPositions()
    expect(referred.length).toBeGreaterThan(0)
    for (const position of referred) {
      const user = Either.getOrThrow(decodeUserBundleAccount(chain.ledger.getAccount(position.address)!.data))
      expect(user.referrer).toBe(position.referrer)
      expect(scenario.people.builders.map((builder) => builder.keypair.address)).toContain(position.referrer)
    }
    expect(chain.ledger.transactions.size).toBeGreaterThan(20)
    expect(scenario.keeperBot.stats.failures).toBe(0)
  })

  it("is deterministic: the same seed gives the same wallets, vaults and positions", () => {
    const first = make(11, "run-a")
    const second = make(11, "run-b")
    const snapshot = ({ chain, scenario }: ReturnType<typeof make>) =>
      scenario.people.users.map((user) => {
        const position = scenario.vaults.map((vault) => chain.ledger.getAccount(findUserBundlePda(chain.programId as Address, user.keypair.address as Address, vault.config.address as Address)[0])?.data)
        return [user.keypair.address, position.map((data) => (data === undefined ? null : Buffer.from(data).toString("base64")))]
      })
    expect(snapshot(second)).toEqual(snapshot(first))
    expect(make(12).scenario.people.users[0]!.keypair.address).not.toBe(first.scenario.people.users[0]!.keypair.address)
  })
})

import type { Address } from "@solana/kit"
import { ACCOUNT_DISCRIMINATORS, USER_BUNDLE_ACCOUNT_SIZE } from "../../ntbundle/accounts.ts"
import { findReferrerPda } from "../../ntbundle/pdas.ts"
import { encodeBase58Bytes32 } from "../../ntbundle/base58.ts"
import type { SandboxChain } from "../chain.ts"
import type { Random } from "../crypto/random.ts"
import type { AccountState } from "../ledger/ledger.ts"
import type { KeeperIndex } from "../ntbundle/keeperIndex.ts"
import { rememberPosition } from "../ntbundle/positionPdas.ts"
import { addressBytes, bundleView, referrerView, USER_BUNDLE_FIELDS } from "../ntbundle/layout.ts"
import { vaultAddresses } from "../ntbundle/support.ts"
import { minimumBalanceForRentExemption, TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { decodeMint, decodeTokenAccount, encodeMint, encodeTokenAccount } from "../programs/tokenLayout.ts"
import { derivePositionsCached } from "./bulkPdas.ts"
import type { Person } from "./people.ts"
import type { PlannedVault } from "./vaultPlan.ts"

/**
 * Bulk genesis for benchmarks: `count` positions written directly (no transactions, no
 * notifications), spread over the launched vaults, a quarter of them bound to a builder
 * registered there. Each position is what a processed deposit would have left: shares at the
 * vault's current price, net deposits, fee timestamps. The vaults stay consistent: their share
 * supply, underlying balance and asset token account grow by the positions' shares and deposits,
 * the mint's supply by the tokens, and each builder's referred net deposits by its users'.
 * Data bytes are views into one shared buffer (440 bytes each).
 */
export interface BulkReport {
  readonly count: number
  readonly referred: number
  readonly workers: number
  /** The position addresses came from the cache of an earlier run. */
  readonly cached: boolean
  readonly pdaSeconds: number
  readonly totalSeconds: number
}

const CHUNK = 100_000
const OFFSET = Object.fromEntries(Object.entries(USER_BUNDLE_FIELDS).map(([name, [, offset]]) => [name, offset])) as Record<keyof typeof USER_BUNDLE_FIELDS, number>

export const writeBulkPositions = (
  chain: SandboxChain,
  input: {
    readonly count: number
    readonly vaults: ReadonlyArray<PlannedVault>
    readonly buildersByVault: ReadonlyMap<string, ReadonlyArray<Person>>
    readonly index: KeeperIndex
    /** Where derived addresses are cached between runs; undefined: no cache. */
    readonly cacheDirectory: string | undefined
  },
  random: Random
): BulkReport => {
  const started = performance.now()
  const { count } = input
  const targets = input.vaults.some((vault) => vault.launched) ? input.vaults.filter((vault) => vault.launched) : input.vaults
  const vaultBytes = new Uint8Array(32 * targets.length)
  targets.forEach((vault, index) => vaultBytes.set(addressBytes(vault.config.address), index * 32))

  const owners = new SharedArrayBuffer(32 * count)
  const vaultOf = new SharedArrayBuffer(4 * count)
  const ownerBytes = new Uint8Array(owners)
  const vaultIndex = new Uint32Array(vaultOf)
  ownerBytes.set(random.bytes(32 * count))
  for (let index = 0; index < count; index++) vaultIndex[index] = random.int(0, targets.length - 1)
  const addresses = new SharedArrayBuffer(32 * count)
  const { workers, cached } = derivePositionsCached({ owners, vaultOf, vaults: vaultBytes, program: addressBytes(chain.programId), addresses, count }, input.cacheDirectory)
  const pdaSeconds = (performance.now() - started) / 1000

  const now = BigInt(chain.ledger.clock.blockTime())
  const states = targets.map((vault) => {
    const bundle = bundleView(chain.ledger.getAccount(vault.config.address)!.data)
    const oracle = chain.ledger.getAccount(vaultAddresses(chain.programId, vault.config.address, vault.config.mint).oracleData)!
    const equity = bundle.bundleUnderlyingBalance + new DataView(oracle.data.buffer, oracle.data.byteOffset).getBigUint64(8, true)
    const builders = (input.buildersByVault.get(vault.config.address) ?? []).map((builder) => builder.keypair.address)
    return {
      vault,
      // Shares at the vault's current price; floats are exact enough here, and the vault is credited with exactly what is written.
      sharesPerToken: bundle.totalShares === 0n || equity === 0n ? 1 : Number(bundle.totalShares) / Number(equity),
      unit: Number(bundle.assetPrecision),
      builders,
      builderBytes: builders.map(addressBytes),
      shares: new Sum(),
      tokens: new Sum(),
      referred: builders.map(() => new Sum())
    }
  })

  const data = new Uint8Array(USER_BUNDLE_ACCOUNT_SIZE * count)
  const view = new DataView(data.buffer)
  const addressArray = new Uint8Array(addresses)
  const lamports = minimumBalanceForRentExemption(USER_BUNDLE_ACCOUNT_SIZE)
  const template = new Uint8Array(USER_BUNDLE_ACCOUNT_SIZE)
  template.set(ACCOUNT_DISCRIMINATORS.UserBundleAccount, 0)
  new DataView(template.buffer).setBigInt64(OFFSET.lastDepositTimestamp, now, true)
  new DataView(template.buffer).setBigInt64(OFFSET.lastManagementFeeTimestamp, now, true)
  let referred = 0
  const positions = function* (from: number, to: number): Generator<readonly [string, AccountState]> {
    for (let index = from; index < to; index++) {
      const state = states[vaultIndex[index]!]!
      const deposit = Math.round(Math.exp(Math.log(10) + random.nextFloat() * Math.log(10_000))) * state.unit
      const shares = Math.floor(deposit * state.sharesPerToken)
      const base = index * USER_BUNDLE_ACCOUNT_SIZE
      data.set(template, base)
      data.set(ownerBytes.subarray(index * 32, index * 32 + 32), base + OFFSET.owner)
      writeU64(view, base + OFFSET.shares, shares)
      writeU64(view, base + OFFSET.hwmPerShare, state.unit)
      writeU64(view, base + OFFSET.netDeposits, deposit)
      if (state.builders.length > 0 && random.chance(0.25)) {
        const builder = random.int(0, state.builders.length - 1)
        data.set(state.builderBytes[builder]!, base + OFFSET.referrer)
        state.referred[builder]!.add(deposit)
        referred++
      }
      state.shares.add(shares)
      state.tokens.add(deposit)
      const address = encodeBase58Bytes32(addressArray.subarray(index * 32, index * 32 + 32))
      input.index.addPosition(state.vault.config.address, address)
      rememberPosition(chain.programId, address, state.vault.config.address)
      yield [address, { owner: chain.programId, lamports, data: data.subarray(base, base + USER_BUNDLE_ACCOUNT_SIZE), executable: false }]
    }
  }
  for (let from = 0; from < count; from += CHUNK) chain.ledger.writeAccounts(positions(from, Math.min(count, from + CHUNK)), { notify: false })
  chain.ledger.writeAccounts([...states.flatMap((state) => vaultUpdates(chain, state)), ...mintUpdates(chain, states)])
  return { count, referred, workers, cached, pdaSeconds, totalSeconds: (performance.now() - started) / 1000 }
}

type Copy = readonly [string, AccountState, Uint8Array]

const copyOf = (chain: SandboxChain, address: string): Copy => {
  const record = chain.ledger.getAccount(address)!
  const data = new Uint8Array(record.data)
  return [address, { owner: record.owner, lamports: record.lamports, data, executable: record.executable }, data]
}

/** A sum of non-negative integers kept exact: small parts add as doubles, folded into a bigint before they could round. */
class Sum {
  private big = 0n
  private small = 0

  add(value: number): void {
    this.small += value
    if (this.small > 2 ** 52) {
      this.big += BigInt(this.small)
      this.small = 0
    }
  }

  get value(): bigint {
    return this.big + BigInt(this.small)
  }
}

const writeU64 = (view: DataView, offset: number, value: number): void => {
  const high = Math.floor(value / 2 ** 32)
  view.setUint32(offset, value - high * 2 ** 32, true)
  view.setUint32(offset + 4, high, true)
}

interface VaultTotals {
  readonly vault: PlannedVault
  readonly shares: Sum
  readonly tokens: Sum
  readonly builders: ReadonlyArray<string>
  readonly referred: ReadonlyArray<Sum>
}

/** The vault, its asset token account and its builders' counters, grown by the bulk positions. */
const vaultUpdates = (chain: SandboxChain, state: VaultTotals): Array<readonly [string, AccountState]> => {
  const { address, mint } = state.vault.config
  const [, bundleState, bundleData] = copyOf(chain, address)
  const bundle = bundleView(bundleData)
  bundle.totalShares += state.shares.value
  bundle.bundleUnderlyingBalance += state.tokens.value
  const [assetAddress, assetState, assetData] = copyOf(chain, vaultAddresses(chain.programId, address, mint).assetTokenAccount)
  const asset = decodeTokenAccount(assetData)!
  assetData.set(encodeTokenAccount({ ...asset, amount: asset.amount + state.tokens.value }))
  const updates: Array<readonly [string, AccountState]> = [[address, bundleState], [assetAddress, assetState]]
  for (const [position, builder] of state.builders.entries()) {
    const deposits = state.referred[position]!.value
    if (deposits === 0n) continue
    const [referrerAccount, referrerState, referrerData] = copyOf(chain, findReferrerPda(chain.programId as Address, address as Address, builder as Address)[0])
    referrerView(referrerData).referredNetDeposits += deposits
    updates.push([referrerAccount, referrerState])
  }
  return updates
}

/** Each mint's supply grows by the tokens all its vaults received. */
const mintUpdates = (chain: SandboxChain, states: ReadonlyArray<VaultTotals>): Array<readonly [string, AccountState]> => {
  const added = new Map<string, bigint>()
  for (const state of states) added.set(state.vault.config.mint, (added.get(state.vault.config.mint) ?? 0n) + state.tokens.value)
  return Array.from(added, ([mint, tokens]) => {
    const [, mintState, mintData] = copyOf(chain, mint)
    const decoded = decodeMint(mintData)!
    mintData.set(encodeMint({ ...decoded, supply: decoded.supply + tokens }))
    return [mint, { ...mintState, owner: TOKEN_PROGRAM_ID }] as const
  })
}

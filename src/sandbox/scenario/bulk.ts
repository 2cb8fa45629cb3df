import type { Address } from "@solana/kit"
import { ACCOUNT_DISCRIMINATORS, USER_BUNDLE_ACCOUNT_SIZE } from "../../ntbundle/accounts.ts"
import { findReferrerPda } from "../../ntbundle/pdas.ts"
import { encodeBase58Bytes32 } from "../../ntbundle/base58.ts"
import type { SandboxChain } from "../chain.ts"
import type { Random } from "../crypto/random.ts"
import type { AccountState } from "../ledger/ledger.ts"
import type { KeeperIndex } from "../ntbundle/keeper-index.ts"
import { addressBytes, bundleView, referrerView, USER_BUNDLE_FIELDS } from "../ntbundle/layout.ts"
import { vaultAddresses } from "../ntbundle/support.ts"
import { minimumBalanceForRentExemption, TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { decodeMint, decodeTokenAccount, encodeMint, encodeTokenAccount } from "../programs/token-layout.ts"
import { derivePositions } from "./bulk-pdas.ts"
import type { Person } from "./people.ts"
import type { PlannedVault } from "./vault-plan.ts"

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
  readonly pdaSeconds: number
  readonly totalSeconds: number
}

const CHUNK = 100_000
const OFFSET = Object.fromEntries(Object.entries(USER_BUNDLE_FIELDS).map(([name, [, offset]]) => [name, offset])) as Record<keyof typeof USER_BUNDLE_FIELDS, number>

export const writeBulkPositions = (
  chain: SandboxChain,
  input: { readonly count: number; readonly vaults: ReadonlyArray<PlannedVault>; readonly buildersByVault: ReadonlyMap<string, ReadonlyArray<Person>>; readonly index: KeeperIndex },
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
  const { workers } = derivePositions({ owners, vaultOf, vaults: vaultBytes, program: addressBytes(chain.programId), addresses, count })
  const pdaSeconds = (performance.now() - started) / 1000

  const now = BigInt(chain.ledger.clock.blockTime())
  const states = targets.map((vault) => {
    const bundle = bundleView(chain.ledger.getAccount(vault.config.address)!.data)
    const oracle = chain.ledger.getAccount(vaultAddresses(chain.programId, vault.config.address, vault.config.mint).oracleData)!
    const equity = bundle.bundleUnderlyingBalance + new DataView(oracle.data.buffer, oracle.data.byteOffset).getBigUint64(8, true)
    const builders = input.buildersByVault.get(vault.config.address) ?? []
    return { vault, totalShares: bundle.totalShares, equity, unit: bundle.assetPrecision, builders, addedShares: 0n, addedTokens: 0n, referred: new Map<string, bigint>() }
  })

  const data = new Uint8Array(USER_BUNDLE_ACCOUNT_SIZE * count)
  const view = new DataView(data.buffer)
  const addressArray = new Uint8Array(addresses)
  const lamports = minimumBalanceForRentExemption(USER_BUNDLE_ACCOUNT_SIZE)
  let referred = 0
  let chunk: Array<readonly [string, AccountState]> = []
  for (let index = 0; index < count; index++) {
    const state = states[vaultIndex[index]!]!
    const deposit = BigInt(Math.round(Math.exp(Math.log(10) + random.nextFloat() * Math.log(10_000)))) * state.unit
    const shares = state.totalShares === 0n || state.equity === 0n ? deposit : (deposit * state.totalShares) / state.equity
    const base = index * USER_BUNDLE_ACCOUNT_SIZE
    data.set(ACCOUNT_DISCRIMINATORS.UserBundleAccount, base)
    data.set(ownerBytes.subarray(index * 32, index * 32 + 32), base + OFFSET.owner)
    view.setBigInt64(base + OFFSET.lastDepositTimestamp, now, true)
    view.setBigUint64(base + OFFSET.shares, shares, true)
    view.setBigUint64(base + OFFSET.hwmPerShare, state.unit, true)
    view.setBigInt64(base + OFFSET.lastManagementFeeTimestamp, now, true)
    view.setBigUint64(base + OFFSET.netDeposits, deposit, true)
    if (state.builders.length > 0 && random.chance(0.25)) {
      const builder = random.pick(state.builders).keypair.address
      data.set(addressBytes(builder), base + OFFSET.referrer)
      state.referred.set(builder, (state.referred.get(builder) ?? 0n) + deposit)
      referred++
    }
    state.addedShares += shares
    state.addedTokens += deposit
    const address = encodeBase58Bytes32(addressArray.subarray(index * 32, index * 32 + 32))
    chunk.push([address, { owner: chain.programId, lamports, data: data.subarray(base, base + USER_BUNDLE_ACCOUNT_SIZE), executable: false }])
    input.index.addPosition(state.vault.config.address, address)
    if (chunk.length === CHUNK) {
      chain.ledger.writeAccounts(chunk, { notify: false })
      chunk = []
    }
  }
  chain.ledger.writeAccounts(chunk, { notify: false })
  chain.ledger.writeAccounts([...states.flatMap((state) => vaultUpdates(chain, state)), ...mintUpdates(chain, states)])
  return { count, referred, workers, pdaSeconds, totalSeconds: (performance.now() - started) / 1000 }
}

type Copy = readonly [string, AccountState, Uint8Array]

const copyOf = (chain: SandboxChain, address: string): Copy => {
  const record = chain.ledger.getAccount(address)!
  const data = new Uint8Array(record.data)
  return [address, { owner: record.owner, lamports: record.lamports, data, executable: record.executable }, data]
}

/** The vault, its asset token account and its builders' counters, grown by the bulk positions. */
const vaultUpdates = (
  chain: SandboxChain,
  state: { readonly vault: PlannedVault; readonly addedShares: bigint; readonly addedTokens: bigint; readonly referred: ReadonlyMap<string, bigint> }
): Array<readonly [string, AccountState]> => {
  const { address, mint } = state.vault.config
  const [, bundleState, bundleData] = copyOf(chain, address)
  const bundle = bundleView(bundleData)
  bundle.totalShares += state.addedShares
  bundle.bundleUnderlyingBalance += state.addedTokens
  const [assetAddress, assetState, assetData] = copyOf(chain, vaultAddresses(chain.programId, address, mint).assetTokenAccount)
  const asset = decodeTokenAccount(assetData)!
  assetData.set(encodeTokenAccount({ ...asset, amount: asset.amount + state.addedTokens }))
  const updates: Array<readonly [string, AccountState]> = [[address, bundleState], [assetAddress, assetState]]
  for (const [builder, deposits] of state.referred) {
    const [referrerAccount, referrerState, referrerData] = copyOf(chain, findReferrerPda(chain.programId as Address, address as Address, builder as Address)[0])
    referrerView(referrerData).referredNetDeposits += deposits
    updates.push([referrerAccount, referrerState])
  }
  return updates
}

/** Each mint's supply grows by the tokens all its vaults received. */
const mintUpdates = (chain: SandboxChain, states: ReadonlyArray<{ readonly vault: PlannedVault; readonly addedTokens: bigint }>): Array<readonly [string, AccountState]> => {
  const added = new Map<string, bigint>()
  for (const state of states) added.set(state.vault.config.mint, (added.get(state.vault.config.mint) ?? 0n) + state.addedTokens)
  return Array.from(added, ([mint, tokens]) => {
    const [, mintState, mintData] = copyOf(chain, mint)
    const decoded = decodeMint(mintData)!
    mintData.set(encodeMint({ ...decoded, supply: decoded.supply + tokens }))
    return [mint, { ...mintState, owner: TOKEN_PROGRAM_ID }] as const
  })
}

// A projection holding one vault (Bundle, OracleData, BundleTempData) plus the positions and
// builder registrations a test needs, built from the blank accounts the program creates.
import type { Address } from "@solana/kit"
import type { Bundle, BundleTempData, OracleData, ReferrerAccount, UserBundleAccount } from "../../ntbundle/accounts.ts"
import { encodeAccount } from "../../ntbundle/accounts.ts"
import {
  blankBundle,
  blankBundleTempData,
  blankOracleData,
  blankReferrerAccount,
  blankUserBundleAccount
} from "../../ntbundle/blankAccounts.ts"
import { findBundleTempDataPda, findOraclePda, findReferrerPda, findUserBundlePda } from "../../ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../ntbundle/programs.ts"
import { ProjectionState } from "../../domain/projection/state.ts"
import type { LatestBlockhash } from "../../domain/builds/blockhash.ts"
import type { BuildContext } from "../../domain/builds/context.ts"
import { deterministicKeypair } from "../../sandbox/crypto/keypair.ts"

/** A wallet (an ed25519 public key, so on the curve). */
export const wallet = (label: string): Address => deterministicKeypair("builds", label).address as Address

export const program = NTBUNDLE_PROGRAM_ID
export const vault = wallet("vault")
export const mint = wallet("usdc-mint")
export const treasury = wallet("treasury")
export const manager = wallet("manager")
export const alice = wallet("alice")
export const bob = wallet("bob")
export const builder = wallet("builder")

export const NOW = 1_800_000_000n

/** 1,100 USDC of equity over 1,000 shares (price 1.1), 10 bps deposit fee, 30 bps withdrawal fee. */
export const baseBundle = (fields: Partial<Bundle> = {}): Bundle =>
  blankBundle({
    manager,
    keeper: wallet("keeper"),
    treasuryAccount: treasury,
    assetAddress: mint,
    assetPrecision: 1_000_000n,
    assetDecimals: 6,
    bundleUnderlyingBalance: 600_000_000n,
    totalShares: 1_000_000_000n,
    minDepositAmount: 1_000_000n,
    depositFee: 10,
    withdrawalFee: 30,
    withdrawalTMin: 3_600n,
    withdrawalTMax: 86_400n,
    withdrawalCurve: 1,
    referrerEnabled: true,
    ...fields
  })

export interface WorldSpec {
  readonly bundle?: Partial<Bundle>
  /** null: the vault has no oracle account. */
  readonly oracle?: Partial<OracleData> | null
  readonly temp?: Partial<BundleTempData> | null
  readonly positions?: ReadonlyArray<{ readonly owner: Address; readonly fields?: Partial<UserBundleAccount> }>
  readonly registrations?: ReadonlyArray<{ readonly referrer: Address; readonly fields?: Partial<ReferrerAccount> }>
}

export interface World {
  readonly state: ProjectionState
  readonly bundle: Bundle
  readonly oracle: OracleData | null
  readonly temp: BundleTempData | null
  readonly position: (owner: Address) => UserBundleAccount | null
  readonly registration: (referrer: Address) => ReferrerAccount | null
}

export const makeWorld = (spec: WorldSpec = {}): World => {
  const state = new ProjectionState(program)
  let slot = 1
  const put = (address: Address, data: Uint8Array) => state.apply({ address, owner: program, slot: slot++, data })
  const bundle = baseBundle(spec.bundle)
  const oracle = spec.oracle === null ? null : blankOracleData({ averageExternalEquity: 500_000_000n, lastUpdateTime: NOW - 60n, ...spec.oracle })
  const temp = spec.temp === null ? null : blankBundleTempData(spec.temp ?? {})
  put(vault, encodeAccount({ type: "Bundle", data: bundle }))
  if (oracle !== null) put(findOraclePda(program, vault)[0], encodeAccount({ type: "OracleData", data: oracle }))
  if (temp !== null) put(findBundleTempDataPda(program, vault)[0], encodeAccount({ type: "BundleTempData", data: temp }))
  const positions = new Map<string, UserBundleAccount>()
  for (const { owner, fields } of spec.positions ?? []) {
    const account = blankUserBundleAccount(owner, fields)
    positions.set(owner, account)
    put(findUserBundlePda(program, owner, vault)[0], encodeAccount({ type: "UserBundleAccount", data: account }))
  }
  const registrations = new Map<string, ReferrerAccount>()
  for (const { referrer, fields } of spec.registrations ?? []) {
    const account = blankReferrerAccount(vault, referrer, fields)
    registrations.set(referrer, account)
    put(findReferrerPda(program, vault, referrer)[0], encodeAccount({ type: "ReferrerAccount", data: account }))
  }
  return {
    state,
    bundle,
    oracle,
    temp,
    position: (owner) => positions.get(owner) ?? null,
    registration: (referrer) => registrations.get(referrer) ?? null
  }
}

export const blockhash: LatestBlockhash = {
  blockhash: wallet("a-blockhash"),
  lastValidBlockHeight: 123_456_789,
  slot: 98_765
}

export const context = (world: World, fields: Partial<BuildContext> = {}): BuildContext => ({
  state: world.state,
  program,
  blockhash,
  defaultPriorityFeeMicroLamports: 5_000n,
  now: NOW,
  ...fields
})

/** A builder registered and eligible to bind users: active, with its own (funded) position. */
export const eligibleBuilder: WorldSpec = {
  positions: [{ owner: builder, fields: { shares: 10_000_000n, netDeposits: 10_000_000n } }],
  registrations: [{ referrer: builder }]
}

export const withSpecs = (...specs: ReadonlyArray<WorldSpec>): WorldSpec =>
  specs.reduce<WorldSpec>(
    (merged, spec) => ({
      ...merged,
      ...spec,
      positions: [...(merged.positions ?? []), ...(spec.positions ?? [])],
      registrations: [...(merged.registrations ?? []), ...(spec.registrations ?? [])]
    }),
    {}
  )

import type { Address } from "@solana/kit"
import { findReferrerPda, findUserBundlePda } from "../../ntbundle/pdas.ts"
import { resolveReferralRates, type ReferralRates, type ReferralTierSchedule } from "../../ntbundle/math.ts"
import type { InvocationContext } from "../runtime/program.ts"
import { BUNDLE, expectAddress, load, loadMut, ORACLE, REFERRER, resolveAccounts, TEMP_DATA, USER_BUNDLE, type AccountSpec, type ResolvedAccounts } from "./accounts.ts"
import { anchorFail, ensure } from "./anchorErrors.ts"
import { isUserBundlePda } from "./positionPdas.ts"
import { DISCRIMINATOR, hasDiscriminator, isZeroKeyAt, readTiers, USER_REFERRER_OFFSET, userBundleView, type BundleView, type OracleView, type ReferrerView, type TempDataView, type UserBundleView } from "./layout.ts"
import { logInstruction, vaultAddresses, type VaultAddresses } from "./support.ts"

/** Loading a vault's accounts with the seeds constraints every instruction applies to them. */
export interface OpenVault {
  readonly address: string
  readonly bundle: BundleView
  readonly pdas: VaultAddresses
}

export const openBundle = (context: InvocationContext, address: string, mutable: boolean): OpenVault => {
  const bundle = mutable ? loadMut(context, "bundle_account", address, BUNDLE) : load(context, "bundle_account", address, BUNDLE)
  return { address, bundle, pdas: vaultAddresses(context.programId, address, bundle.assetAddress) }
}

export const openOracle = (context: InvocationContext, vault: OpenVault, passed: string, mutable = true): OracleView => {
  expectAddress("oracle_data", passed, vault.pdas.oracleData)
  return mutable ? loadMut(context, "oracle_data", passed, ORACLE) : load(context, "oracle_data", passed, ORACLE)
}

export const openTempData = (context: InvocationContext, vault: OpenVault, passed: string, mutable = true): TempDataView => {
  expectAddress("bundle_temp_data", passed, vault.pdas.bundleTempData)
  return mutable ? loadMut(context, "bundle_temp_data", passed, TEMP_DATA) : load(context, "bundle_temp_data", passed, TEMP_DATA)
}

export const userBundleAddress = (context: InvocationContext, owner: string, bundle: string): string =>
  findUserBundlePda(context.programId as Address, owner as Address, bundle as Address)[0]

export const referrerAddress = (context: InvocationContext, bundle: string, referrer: string): string =>
  findReferrerPda(context.programId as Address, bundle as Address, referrer as Address)[0]

export const openUserBundle = (context: InvocationContext, vault: OpenVault, owner: string, passed: string, name = "user_bundle_account"): UserBundleView => {
  const existing = context.account(passed).data
  const storedOwner = hasDiscriminator(existing, DISCRIMINATOR.UserBundleAccount) && existing.length >= 440 ? userBundleView(existing).owner : undefined
  if (!isUserBundlePda(context.programId, passed, owner, vault.address, storedOwner)) anchorFail("ConstraintSeeds", name)
  return loadMut(context, name, passed, USER_BUNDLE)
}

export const requireKeeper = (vault: OpenVault, keeper: string): void => ensure(vault.bundle.keeper === keeper, "UnauthorizedKeeperAction")

/** Accounts the vault's Bundle names (`address =` constraints), by account name. */
const NAMED_BY_BUNDLE: Readonly<Record<string, "assetAddress" | "treasuryAccount">> = { asset_address: "assetAddress", treasury_account: "treasuryAccount" }

/** The vault's PDAs (`seeds =` constraints), by account name. */
const DERIVED_FROM_VAULT: Readonly<Record<string, "pendingAuthority" | "pendingTokenAccount" | "assetAuthority" | "assetTokenAccount">> = {
  pending_bundle_asset_authority: "pendingAuthority",
  pending_deposit_token_account: "pendingTokenAccount",
  bundle_asset_authority: "assetAuthority",
  bundle_asset_account: "assetTokenAccount"
}

/** Checks the vault's own accounts among those passed, in account-list order as Anchor does. */
export const expectVaultAccounts = (vault: OpenVault, accounts: Readonly<Record<string, string>>): void => {
  for (const name in accounts) {
    const field = NAMED_BY_BUNDLE[name]
    if (field !== undefined) expectAddress(name, accounts[name]!, vault.bundle[field], "ConstraintAddress")
    const pda = DERIVED_FROM_VAULT[name]
    if (pda !== undefined) expectAddress(name, accounts[name]!, vault.pdas[pda])
  }
}

/**
 * How every keeper instruction opens: its log line, its account list, the vault (writable) with
 * its keeper's signature and its own accounts checked.
 */
export const openForKeeper = <const S extends ReadonlyArray<AccountSpec>>(
  context: InvocationContext,
  name: string,
  specs: S
): { readonly accounts: ResolvedAccounts<S>; readonly vault: OpenVault } => {
  logInstruction(context, name)
  const accounts = resolveAccounts(context, specs)
  const named = accounts as Readonly<Record<string, string>>
  const vault = openBundle(context, named["bundle_account"]!, true)
  requireKeeper(vault, named["keeper"]!)
  expectVaultAccounts(vault, named)
  return { accounts, vault }
}

export const requireManager = (vault: OpenVault, manager: string): void => ensure(vault.bundle.manager === manager, "UnauthorizedManagerAction")

export const tierSchedule = (bundle: BundleView): ReferralTierSchedule => ({ referralTiers: readTiers(bundle), tierCount: bundle.tierCount })

/** The builder's live rates: tier from its referred-net-deposits counter, then its overrides. */
export const liveReferralRates = (bundle: BundleView, referrer: ReferrerView): ReferralRates => resolveReferralRates(tierSchedule(bundle), referrer)

export const isReferred = (user: UserBundleView): boolean => !isZeroKeyAt(user.data, USER_REFERRER_OFFSET)

/**
 * The keeper passes a referred user's ReferrerAccount as the first account after the IDL list
 * (facts §5.7: the program's exact rule is unknown). Missing: ReferrerAccountMissing; not the
 * PDA of (bundle, user.referrer): ReferrerAccountMismatch. Unreferred users: extra accounts are
 * ignored and the result is null.
 */
export const openUserReferrer = (context: InvocationContext, vault: OpenVault, user: UserBundleView, remaining: ReadonlyArray<string>): ReferrerView | null => {
  if (!isReferred(user)) return null
  const passed = remaining[0]
  if (passed === undefined) return anchorFail("ReferrerAccountMissing")
  if (passed !== referrerAddress(context, vault.address, user.referrer)) anchorFail("ReferrerAccountMismatch")
  return loadMut(context, "referrer_account", passed, REFERRER)
}

/** `Option<i128>` of the referral events: the builder's counter after the change, None when unreferred. */
export const referredAfter = (referrer: ReferrerView | null): bigint | null => (referrer === null ? null : referrer.referredNetDeposits)

/** Oracle freshness (OracleNotUpdated): only when the vault sets an oracle_max_age. */
export const requireFreshOracle = (bundle: BundleView, oracle: OracleView, now: bigint): void => {
  if (bundle.oracleMaxAge > 0n) ensure(now - oracle.lastUpdateTime <= bundle.oracleMaxAge, "OracleNotUpdated")
}

/** Closes the deposit cycle once its last netted deposit is processed or refunded. */
export const settleDepositCycle = (temp: TempDataView): void => {
  if (temp.pendingDepositsCounter !== 0n) return
  temp.lastTotalSharesMinted = temp.allocatedShares
  temp.allocatedShares = 0n
  temp.isNettingDone = false
}

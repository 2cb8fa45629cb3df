import { getAddressEncoder, type Address, type ProgramDerivedAddress } from "@solana/kit"
import { AdmittedCache } from "../admittedCache.ts"
import { GenerationalCache } from "../generationalCache.ts"
import { addressBytesOf } from "./addressBytes.ts"
import { findProgramAddress } from "./programAddress.ts"
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./programs.ts"

// The ntbundle program's PDAs and associated token accounts. Transaction builders derive several
// per build, so results are memoised.

const addressEncoder = getAddressEncoder()

/** The 32 bytes of an address (memoised and shared: never mutate). Kit's encoder names a malformed one. */
const addressBytes = (value: Address): Uint8Array => addressBytesOf(value) ?? new Uint8Array(addressEncoder.encode(value))

/** `findProgramAddress` with the program first, as kit orders its inputs. */
export const findProgramAddressSync = (program: Address, seeds: ReadonlyArray<Uint8Array>): ProgramDerivedAddress =>
  findProgramAddress(seeds, program)

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

const SEED = {
  bundle: utf8("BUNDLE"),
  userBundle: utf8("USER_BUNDLE"),
  referrer: utf8("REFERRER"),
  oracle: utf8("ORACLE"),
  bundleTempData: utf8("BUNDLE_TEMP_DATA"),
  pendingBundleAssetAuthority: utf8("PENDING_BUNDLE_ASSET_AUTHORITY"),
  bundleAssetAuthority: utf8("BUNDLE_ASSET_AUTHORITY"),
  strategy: utf8("STRATEGY"),
  bundleMaster: utf8("BUNDLE_MASTER"),
  bundleCreator: utf8("BUNDLE_CREATOR")
} as const

const derivationCache = new AdmittedCache<ProgramDerivedAddress>(50_000)

interface RecentDerivation {
  readonly program: string
  readonly kind: string
  readonly first: string
  readonly second: string
  readonly result: ProgramDerivedAddress
}

// One build asks for the same few addresses several times (the position PDA three times in a
// first deposit): the last derivations are compared in place, without building the cache key.
const RECENT = 8
const recent: Array<RecentDerivation | undefined> = new Array<RecentDerivation | undefined>(RECENT).fill(undefined)
let recentNext = 0

/** Memoised derivation keyed by the textual inputs (at most two), so a hit costs no hashing. */
const derive = (
  program: Address,
  kind: string,
  first: string,
  second: string,
  seeds: () => ReadonlyArray<Uint8Array>
): ProgramDerivedAddress => {
  for (let index = 0; index < RECENT; index++) {
    const entry = recent[index]
    if (entry !== undefined && entry.first === first && entry.second === second && entry.kind === kind && entry.program === program) {
      return entry.result
    }
  }
  const result = derivationCache.getOrCompute(`${program}/${kind}/${first}/${second}`, () => findProgramAddress(seeds(), program))
  recent[recentNext] = { program, kind, first, second, result }
  recentNext = (recentNext + 1) % RECENT
  return result
}

/** `bundle.name` is 32 raw bytes, and those bytes are the Bundle PDA's seed. */
export const BUNDLE_NAME_LENGTH = 32

/** A bundle name as stored on chain: UTF-8, right-padded with zeros to 32 bytes; null when longer. */
export const encodeBundleName = (name: string): Uint8Array | null => {
  const text = utf8(name)
  if (text.length > BUNDLE_NAME_LENGTH) return null
  const padded = new Uint8Array(BUNDLE_NAME_LENGTH)
  padded.set(text)
  return padded
}

export const findBundlePda = (program: Address, name: Uint8Array): ProgramDerivedAddress =>
  derivationCache.getOrCompute(`${program}/bundle/${Buffer.from(name).toString("hex")}`, () =>
    findProgramAddress([SEED.bundle, name], program)
  )

/** A user's position in a bundle. Seeds: owner first, then bundle. */
export const findUserBundlePda = (program: Address, owner: Address, bundle: Address): ProgramDerivedAddress =>
  derive(program, "user_bundle", owner, bundle, () => [SEED.userBundle, addressBytes(owner), addressBytes(bundle)])

/** A builder's registration in a bundle. Seeds: bundle first, then the referrer wallet. */
export const findReferrerPda = (program: Address, bundle: Address, referrer: Address): ProgramDerivedAddress =>
  derive(program, "referrer", bundle, referrer, () => [SEED.referrer, addressBytes(bundle), addressBytes(referrer)])

export const findOraclePda = (program: Address, bundle: Address): ProgramDerivedAddress =>
  derive(program, "oracle", bundle, "", () => [SEED.oracle, addressBytes(bundle)])

export const findBundleTempDataPda = (program: Address, bundle: Address): ProgramDerivedAddress =>
  derive(program, "bundle_temp_data", bundle, "", () => [SEED.bundleTempData, addressBytes(bundle)])

export const findPendingBundleAssetAuthorityPda = (program: Address, bundle: Address): ProgramDerivedAddress =>
  derive(program, "pending_bundle_asset_authority", bundle, "", () => [
    SEED.pendingBundleAssetAuthority,
    addressBytes(bundle)
  ])

export const findBundleAssetAuthorityPda = (program: Address, bundle: Address): ProgramDerivedAddress =>
  derive(program, "bundle_asset_authority", bundle, "", () => [SEED.bundleAssetAuthority, addressBytes(bundle)])

export const findStrategyPda = (program: Address, receiver: Address, bundle: Address): ProgramDerivedAddress =>
  derive(program, "strategy", receiver, bundle, () => [SEED.strategy, addressBytes(receiver), addressBytes(bundle)])

export const findBundleMasterPda = (program: Address): ProgramDerivedAddress =>
  derive(program, "bundle_master", "", "", () => [SEED.bundleMaster])

export const findBundleCreatorPda = (program: Address, creator: Address): ProgramDerivedAddress =>
  derive(program, "bundle_creator", creator, "", () => [SEED.bundleCreator, addressBytes(creator)])

/** The associated token account of `owner` for `mint` under the classic SPL Token program (Token-2022 is not supported). */
export const findAssociatedTokenAddress = (owner: Address, mint: Address): ProgramDerivedAddress =>
  derive(ASSOCIATED_TOKEN_PROGRAM_ID, "ata", owner, mint, () => [
    addressBytes(owner),
    addressBytes(TOKEN_PROGRAM_ID),
    addressBytes(mint)
  ])

/** The per-bundle accounts most instructions need, derived from the bundle address and its asset mint. */
export interface BundleDerivedAccounts {
  readonly oracleData: Address
  readonly bundleTempData: Address
  readonly pendingBundleAssetAuthority: Address
  readonly bundleAssetAuthority: Address
  /** ATA(pending asset authority, mint): where deposits wait for netting. */
  readonly pendingDepositTokenAccount: Address
  /** ATA(bundle asset authority, mint): the vault's own token account. */
  readonly bundleAssetTokenAccount: Address
}

const bundleAccountsCache = new GenerationalCache<string, BundleDerivedAccounts>(10_000)

let lastBundleAccounts: { readonly program: string; readonly bundle: string; readonly mint: string; readonly accounts: BundleDerivedAccounts } | null =
  null

/** Memoised as a whole: every build for a vault needs all six (consecutive builds mostly target one vault). */
export const deriveBundleAccounts = (program: Address, bundle: Address, mint: Address): BundleDerivedAccounts => {
  const last = lastBundleAccounts
  if (last !== null && last.bundle === bundle && last.mint === mint && last.program === program) return last.accounts
  const accounts = bundleAccountsCache.getOrCompute(`${program}/${bundle}/${mint}`, () => deriveBundleAccountsOnce(program, bundle, mint))
  lastBundleAccounts = { program, bundle, mint, accounts }
  return accounts
}

const deriveBundleAccountsOnce = (program: Address, bundle: Address, mint: Address): BundleDerivedAccounts => {
  const [pendingBundleAssetAuthority] = findPendingBundleAssetAuthorityPda(program, bundle)
  const [bundleAssetAuthority] = findBundleAssetAuthorityPda(program, bundle)
  return {
    oracleData: findOraclePda(program, bundle)[0],
    bundleTempData: findBundleTempDataPda(program, bundle)[0],
    pendingBundleAssetAuthority,
    bundleAssetAuthority,
    pendingDepositTokenAccount: findAssociatedTokenAddress(pendingBundleAssetAuthority, mint)[0],
    bundleAssetTokenAccount: findAssociatedTokenAddress(bundleAssetAuthority, mint)[0]
  }
}

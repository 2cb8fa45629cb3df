import type { Address } from "@solana/kit"
import { Either } from "effect"
import type { Bundle, BundleTempData } from "../accounts.ts"
import { initializeBundleDepositorIx, requestDepositIx } from "../ix/user.ts"
import type { BuiltInstruction } from "../ix/meta.ts"
import type { PositionFields } from "../positionFields.ts"
import { SYSTEM_PROGRAM_ID } from "../programs.ts"
import { reject, type BuildRejection } from "./rejection.ts"

export const U64_MAX = 2n ** 64n - 1n

/** The vault a build targets, as read from the projection (null = account not found on chain). */
export interface VaultRef {
  /** The ntbundle program the vault lives under (mainnet, devnet). */
  readonly program: Address
  readonly bundleAddress: Address
  readonly bundle: Bundle | null
}

/** The all-zero public key: how the program stores "no referrer". */
export const isDefaultAddress = (value: Address): boolean => value === SYSTEM_PROGRAM_ID

/** A raw amount must be a u64 greater than zero. */
export const validateAmountRaw = (amount: bigint): Either.Either<bigint, BuildRejection> =>
  amount > 0n && amount <= U64_MAX
    ? Either.right(amount)
    : Either.left(reject("INVALID_AMOUNT_RAW", `amount must be an integer between 1 and ${U64_MAX}, got ${amount}`))

const CANONICAL_UNSIGNED = /^(0|[1-9][0-9]*)$/

/** Parses the wire form of an amount: a canonical base-10 unsigned integer string within u64, above 0. */
export const parseAmountRaw = (text: string): Either.Either<bigint, BuildRejection> =>
  CANONICAL_UNSIGNED.test(text) && text.length <= 20
    ? validateAmountRaw(BigInt(text))
    : Either.left(reject("INVALID_AMOUNT_RAW", `amountRaw must be a canonical unsigned integer string, got "${text.slice(0, 40)}"`))

export const requireBundle = (vault: VaultRef): Either.Either<Bundle, BuildRejection> =>
  vault.bundle === null
    ? Either.left(reject("BUNDLE_ACCOUNT_NOT_FOUND", `no bundle account at ${vault.bundleAddress}`))
    : Either.right(vault.bundle)

/** Paused vaults accept no requests; only checked when the caller knows the temp data. */
export const checkNotPaused = (
  vault: VaultRef,
  bundleTempData: BundleTempData | null | undefined
): Either.Either<void, BuildRejection> =>
  bundleTempData?.pausedDepositsWithdrawals === true
    ? Either.left(reject("VAULT_PAUSED", `deposits and withdrawals are paused on ${vault.bundleAddress}`))
    : Either.right(undefined)

export interface DepositStepInput {
  readonly vault: VaultRef
  readonly bundle: Bundle
  readonly user: Address
  readonly userBundleAccount: PositionFields | null
  readonly amount: bigint
  readonly userTokenAccount?: Address | undefined
}

/** Public depositors cannot open a position on a permissioned vault (the manager does that). */
export const checkCanOpenPosition = (
  vault: VaultRef,
  bundle: Bundle,
  userBundleAccount: PositionFields | null
): Either.Either<void, BuildRejection> =>
  userBundleAccount === null && bundle.permissionned
    ? Either.left(
        reject("BUNDLE_IS_PERMISSIONED", `${vault.bundleAddress} is permissioned: positions are opened by its manager`)
      )
    : Either.right(undefined)

/** [initialize_bundle_depositor when the position is missing], request_deposit. */
export const depositInstructions = (input: DepositStepInput): ReadonlyArray<BuiltInstruction> => {
  // literals without spreads: this runs on every deposit build, and spreading is a slow path in V8
  const program = input.vault.program
  const bundle = input.vault.bundleAddress
  const request = requestDepositIx({
    program,
    bundle,
    user: input.user,
    assetMint: input.bundle.assetAddress,
    treasury: input.bundle.treasuryAccount,
    amount: input.amount,
    userTokenAccount: input.userTokenAccount
  })
  return input.userBundleAccount === null
    ? [initializeBundleDepositorIx({ program, bundle, payer: input.user, authority: input.user }), request]
    : [request]
}

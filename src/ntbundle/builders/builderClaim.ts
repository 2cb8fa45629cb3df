import type { Address } from "@solana/kit"
import { Either } from "effect"
import type { OracleData, ReferrerAccount } from "../accounts.ts"
import type { BuiltInstruction } from "../ix/meta.ts"
import { referrerRequestWithdrawIx } from "../ix/user.ts"
import {
  assetsFromShares,
  bundleCooldownCurve,
  cooldownSeconds,
  vaultValuation,
  withdrawalAvailableAt
} from "../math.ts"
import { requireBundle, type VaultRef } from "./common.ts"
import { reject, type BuildRejection } from "./rejection.ts"

export interface BuilderClaimInput {
  readonly vault: VaultRef
  readonly oracle: OracleData | null
  readonly referrer: Address
  /** ReferrerAccount PDA(bundle, referrer); null when not registered. */
  readonly referrerAccount: ReferrerAccount | null
  /** Unix seconds, for the availability estimate. */
  readonly now: bigint
}

export interface BuilderClaimPlan {
  /** referrer_request_withdraw (it always claims every accrued share). */
  readonly instructions: ReadonlyArray<BuiltInstruction>
  /** Accrued performance-fee plus management-fee shares. */
  readonly sharesToWithdraw: bigint
  readonly estimatedWithdrawalValueRaw: bigint
  /** Cooldown end, or the redemption-cycle unlock when that is later. */
  readonly estimatedAvailableTimestamp: bigint
}

/** A builder's claim request: redeem all accrued referral shares. Deactivated builders may still claim. */
export const buildBuilderClaim = (input: BuilderClaimInput): Either.Either<BuilderClaimPlan, BuildRejection> =>
  Either.gen(function* () {
    const bundle = yield* requireBundle(input.vault)
    const account = input.referrerAccount
    if (account === null) {
      return yield* Either.left(reject("REFERRER_NOT_REGISTERED", `${input.referrer} is not registered on this vault`))
    }
    if (account.referrer !== input.referrer || account.bundle !== input.vault.bundleAddress) {
      return yield* Either.left(
        reject("REFERRER_ACCOUNT_MISMATCH", "the referrer account belongs to another builder or vault")
      )
    }
    if (account.estimatedPendingWithdrawalValue !== 0n) {
      return yield* Either.left(reject("WITHDRAWAL_ALREADY_PENDING", "a claim is already pending on this vault"))
    }
    const sharesToWithdraw = account.accruedPfeeShares + account.accruedMfeeShares
    if (sharesToWithdraw === 0n) {
      return yield* Either.left(reject("NO_ACCRUED_REFERRAL_SHARES", "there are no accrued referral shares to claim"))
    }
    const oracle = input.oracle
    if (oracle === null) {
      return yield* Either.left(reject("ORACLE_DATA_NOT_FOUND", `no oracle account for ${input.vault.bundleAddress}`))
    }
    const valuation = vaultValuation({ bundle, oracle })
    const estimatedWithdrawalValueRaw = assetsFromShares(valuation, sharesToWithdraw)
    if (valuation.totalShares === 0n || estimatedWithdrawalValueRaw === 0n) {
      return yield* Either.left(
        reject("WITHDRAWAL_VALUE_TOO_SMALL", "the accrued shares are currently worth nothing")
      )
    }
    const cooldown = cooldownSeconds(bundleCooldownCurve(bundle), sharesToWithdraw, valuation.totalShares)
    return {
      instructions: [
        referrerRequestWithdrawIx({
          program: input.vault.program,
          bundle: input.vault.bundleAddress,
          referrer: input.referrer
        })
      ],
      sharesToWithdraw,
      estimatedWithdrawalValueRaw,
      estimatedAvailableTimestamp: withdrawalAvailableAt(input.now, cooldown, bundle)
    }
  })

// Typed access to test/fixtures/ntbundle-golden-2.json (golden values from the official SDK, the
// captured devnet transaction and the IDL; see its `_about`).
import { readFileSync } from "node:fs"
import { AccountRole, address, type Address } from "@solana/kit"
import { Either } from "effect"

export interface GoldenInstruction {
  readonly program: string
  readonly accounts: ReadonlyArray<readonly [string, number]>
  readonly dataHex: string
}

type Rates = { readonly referralPfeeBps: number; readonly referralMfeeBps: number; readonly referralTierIndex: number | null }
type Tier = { readonly threshold: string; readonly pfeeBps: number; readonly mfeeBps: number }

export interface GoldenMath {
  readonly totalEquity: string
  readonly sharePrice: string
  readonly assetsFromShares: { readonly shares: string; readonly expected: string }
  readonly grossForNet: { readonly net: string; readonly depositFeeBps: number; readonly expected: string }
  readonly cooldown: ReadonlyArray<{
    readonly shares: string
    readonly totalShares: string
    readonly tMin: string
    readonly tMax: string
    readonly curve: number
    readonly expected: string
  }>
  readonly availability: {
    readonly cooldown: string
    readonly cutoffTs: string
    readonly unlockCurrentCycleTs: string
    readonly unlockNextCycleTs: string
    readonly beforeCutoff: { readonly now: string; readonly expected: string }
    readonly afterCutoff: { readonly now: string; readonly expected: string }
  }
  readonly tierRates: ReadonlyArray<{
    readonly case: string
    readonly referredNetDeposits: string
    readonly override: { readonly rateOverrideFlags: number; readonly customPfeeBps: number; readonly customMfeeBps: number } | null
    readonly expected: Rates
  }>
  readonly tierProgress: {
    readonly referredNetDeposits: string
    readonly currentTierIndex: number | null
    readonly currentTier: Tier | null
    readonly nextTierIndex: number | null
    readonly nextTier: Tier | null
    readonly remainingNetDeposits: string
    readonly progressBps: number
    readonly isHighestTier: boolean
  }
  readonly pendingFees: {
    readonly now: string
    readonly expected: Readonly<Record<"managementFeeShares" | "performanceFeeShares" | "totalFeeShares" | "feeValueRaw" | "sharePrice", string>>
  }
}

export interface GoldenBuilders {
  readonly program: string
  readonly bundle: string
  readonly user: string
  readonly referrer: string
  readonly depositFreshUser: { readonly amount: string; readonly instructions: ReadonlyArray<GoldenInstruction> }
  readonly attributedDepositFreshUser: { readonly amount: string; readonly instructions: ReadonlyArray<GoldenInstruction> }
  readonly withdraw: { readonly amount: string; readonly sharesAmount: string; readonly requestWithdrawal: GoldenInstruction }
  readonly registrationZeroMin: { readonly kind: string; readonly instructions: ReadonlyArray<GoldenInstruction> }
  readonly claim: {
    readonly now: string
    readonly sharesToWithdraw: string
    readonly estimatedWithdrawalValueRaw: string
    readonly estimatedAvailableTimestamp: string
    readonly instructions: ReadonlyArray<GoldenInstruction>
  }
  readonly memo: { readonly program: string; readonly utf8: string }
}

export interface GoldenDevnetTransaction {
  readonly txBytes: number
  readonly messageBytes: number
  readonly version: number
  readonly header: {
    readonly numSignerAccounts: number
    readonly numReadonlySignerAccounts: number
    readonly numReadonlyNonSignerAccounts: number
  }
  readonly feePayerAndOnlySigner: string
  readonly blockhash: string
  readonly staticAccounts: ReadonlyArray<string>
  readonly instructions: ReadonlyArray<{
    readonly program: string
    readonly accountIndices: ReadonlyArray<number>
    readonly dataHex: string
    readonly meaning: string
  }>
}

export interface Golden {
  readonly pdas: ReadonlyArray<{
    readonly case: string
    readonly kind: string
    readonly program: string
    readonly seeds: ReadonlyArray<string>
    readonly address: string
    readonly bump: number
  }>
  readonly accounts: Readonly<Record<"Bundle" | "UserBundleAccount" | "ReferrerAccount" | "OracleData" | "BundleTempData", { readonly hex: string; readonly size: number }>>
  readonly bundleJson: Readonly<Record<string, unknown>>
  readonly math: GoldenMath
  readonly builders: GoldenBuilders
  readonly devnetDepositTransaction: GoldenDevnetTransaction
  readonly idlAccountFlags: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>>
}

export const golden: Golden = JSON.parse(
  readFileSync(new URL("../fixtures/ntbundle-golden-2.json", import.meta.url), "utf8")
) as Golden

export const hexBytes = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, "hex"))
export const toHexString = (bytes: Uint8Array | ReadonlyArray<number>): string => Buffer.from(bytes).toString("hex")

/** Unwraps a Right or fails the test with the Left. */
export const right = <A, E>(either: Either.Either<A, E>): A => {
  if (Either.isLeft(either)) throw new Error(`expected Right, got Left: ${String(either.left)}`)
  return either.right
}

/** An instruction in the fixture's compact form, for whole-list equality. */
export const compact = (ix: {
  readonly programAddress: Address
  readonly accounts?: ReadonlyArray<{ readonly address: Address; readonly role: AccountRole }>
  readonly data?: Uint8Array | ReadonlyArray<number>
}): GoldenInstruction => ({
  program: ix.programAddress,
  accounts: (ix.accounts ?? []).map((meta) => [meta.address, meta.role] as const),
  dataHex: toHexString(ix.data ?? new Uint8Array())
})

export const addr = (text: string): Address => address(text)

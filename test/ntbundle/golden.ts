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
  readonly math: any
  readonly builders: any
  readonly devnetDepositTransaction: any
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

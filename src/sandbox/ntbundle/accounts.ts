import type { InvocationContext } from "../runtime/program.ts"
import { anchorFail } from "./anchorErrors.ts"
import {
  bundleView,
  DISCRIMINATOR,
  hasDiscriminator,
  oracleView,
  referrerView,
  tempDataView,
  userBundleView,
  type BundleView,
  type OracleView,
  type ReferrerView,
  type TempDataView,
  type UserBundleView
} from "./layout.ts"

/**
 * Anchor's account validation, as the model needs it: the IDL account list in order (count,
 * signer, mut, fixed program ids), then typed loads that check ownership, discriminator and
 * size the way `Account<'info, T>` does, and seeds constraints comparing a passed address with
 * the PDA the program derives.
 */
export interface AccountSpec<N extends string = string> {
  readonly name: N
  readonly signer?: boolean
  readonly writable?: boolean
  /** A fixed address (a program or sysvar id). */
  readonly address?: string
}

export type ResolvedAccounts<S extends ReadonlyArray<AccountSpec>> = { readonly [K in S[number]["name"]]: string }

export const signer = <N extends string>(name: N): AccountSpec<N> => ({ name, signer: true, writable: true })
export const mut = <N extends string>(name: N): AccountSpec<N> => ({ name, writable: true })
export const readonlyAccount = <N extends string>(name: N): AccountSpec<N> => ({ name })
export const fixed = <N extends string>(name: N, address: string): AccountSpec<N> => ({ name, address })

export const resolveAccounts = <const S extends ReadonlyArray<AccountSpec>>(context: InvocationContext, specs: S): ResolvedAccounts<S> => {
  const metas = context.instruction.accounts
  if (metas.length < specs.length) anchorFail("AccountNotEnoughKeys")
  const resolved: Record<string, string> = {}
  specs.forEach((spec, index) => {
    const meta = metas[index]!
    if (spec.signer === true && !context.isSigner(meta.address)) anchorFail("AccountNotSigner", spec.name)
    if (spec.writable === true && !context.isWritable(meta.address)) anchorFail("ConstraintMut", spec.name)
    if (spec.address !== undefined && meta.address !== spec.address) {
      anchorFail(spec.name.endsWith("_program") ? "InvalidProgramId" : "ConstraintAddress", spec.name)
    }
    resolved[spec.name] = meta.address
  })
  return resolved as ResolvedAccounts<S>
}

/** Accounts passed after the IDL list (the keeper's referrer account). */
export const remainingAccounts = (context: InvocationContext, specCount: number): ReadonlyArray<string> =>
  context.instruction.accounts.slice(specCount).map((meta) => meta.address)

/** A seeds constraint: the passed account must be the PDA the program derives. */
export const expectAddress = (name: string, actual: string, expected: string, error: "ConstraintSeeds" | "ConstraintAddress" | "ConstraintHasOne" = "ConstraintSeeds"): void => {
  if (actual !== expected) anchorFail(error, name)
}

interface AccountKind<V> {
  readonly discriminator: Uint8Array
  readonly minSize: number
  readonly view: (data: Uint8Array) => V
  /** Bytes beyond `minSize` the data says it needs (a Bundle's receivers). */
  readonly variableSize?: (data: Uint8Array) => number
}

export const BUNDLE: AccountKind<BundleView> = {
  discriminator: DISCRIMINATOR.Bundle,
  minSize: 557,
  view: bundleView,
  variableSize: (data) => 32 * new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(136, true)
}
export const USER_BUNDLE: AccountKind<UserBundleView> = { discriminator: DISCRIMINATOR.UserBundleAccount, minSize: 440, view: userBundleView }
export const REFERRER: AccountKind<ReferrerView> = { discriminator: DISCRIMINATOR.ReferrerAccount, minSize: 219, view: referrerView }
export const ORACLE: AccountKind<OracleView> = { discriminator: DISCRIMINATOR.OracleData, minSize: 88, view: oracleView }
export const TEMP_DATA: AccountKind<TempDataView> = { discriminator: DISCRIMINATOR.BundleTempData, minSize: 267, view: tempDataView }

const checkLoadable = <V>(context: InvocationContext, name: string, address: string, kind: AccountKind<V>): void => {
  const account = context.account(address)
  if (account.lamports === 0n && account.data.length === 0) anchorFail("AccountNotInitialized", name)
  if (account.owner !== context.programId) anchorFail("AccountOwnedByWrongProgram", name)
  if (!hasDiscriminator(account.data, kind.discriminator)) anchorFail("AccountDiscriminatorMismatch", name)
  if (account.data.length < kind.minSize) anchorFail("AccountDidNotDeserialize", name)
  if (kind.variableSize !== undefined && account.data.length < kind.minSize + kind.variableSize(account.data)) {
    anchorFail("AccountDidNotDeserialize", name)
  }
}

/** A typed view for reading only (`Account<'info, T>` without `mut`). */
export const load = <V>(context: InvocationContext, name: string, address: string, kind: AccountKind<V>): V => {
  checkLoadable(context, name, address, kind)
  return kind.view(context.account(address).data)
}

/** A typed view over this transaction's private copy of the account: writes land in place. */
export const loadMut = <V>(context: InvocationContext, name: string, address: string, kind: AccountKind<V>): V => {
  checkLoadable(context, name, address, kind)
  if (!context.isWritable(address)) anchorFail("AccountNotMutable", name)
  return kind.view(context.dataMut(address))
}

/** Whether `address` holds an initialized account of this kind owned by the program. */
export const isInitialized = <V>(context: InvocationContext, address: string, kind: AccountKind<V>): boolean => {
  const account = context.account(address)
  return account.owner === context.programId && hasDiscriminator(account.data, kind.discriminator)
}

export const nowOf = (context: InvocationContext): bigint => BigInt(context.clock.unixTimestamp)

import type { Address } from "@solana/kit"
import type { NtEvent } from "../../ntbundle/events.ts"
import { vaultValuation, type VaultValuation } from "../../ntbundle/math.ts"
import {
  findAssociatedTokenAddress,
  findBundleAssetAuthorityPda,
  findBundleTempDataPda,
  findOraclePda,
  findPendingBundleAssetAuthorityPda
} from "../../ntbundle/pdas.ts"
import { minimumBalanceForRentExemption, TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { systemCreateAccount, tokenTransfer } from "../programs/instructions.ts"
import { decodeTokenAccount } from "../programs/tokenLayout.ts"
import type { InvocationContext } from "../runtime/program.ts"
import { anchorFail } from "./anchorErrors.ts"
import { encodeEventFast } from "./eventWriter.ts"
import { addressBytes, type BundleView, type OracleView } from "./layout.ts"

/** Cross-program calls (SPL Token transfers, System account creation), events and vault PDAs. */
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
const PENDING_AUTHORITY_SEED = utf8("PENDING_BUNDLE_ASSET_AUTHORITY")
const ASSET_AUTHORITY_SEED = utf8("BUNDLE_ASSET_AUTHORITY")

export interface VaultAddresses {
  readonly oracleData: string
  readonly bundleTempData: string
  readonly pendingAuthority: string
  readonly pendingAuthoritySeeds: ReadonlyArray<Uint8Array>
  readonly assetAuthority: string
  readonly assetAuthoritySeeds: ReadonlyArray<Uint8Array>
  readonly pendingTokenAccount: string
  readonly assetTokenAccount: string
}

const vaultAddressCache = new Map<string, VaultAddresses>()

/** The PDAs of a vault under `programId` (memoised: a sandbox holds a few dozen vaults). */
export const vaultAddresses = (programId: string, bundle: string, mint: string): VaultAddresses => {
  const key = `${programId}/${bundle}/${mint}`
  let addresses = vaultAddressCache.get(key)
  if (addresses === undefined) {
    addresses = deriveVaultAddresses(programId, bundle, mint)
    vaultAddressCache.set(key, addresses)
  }
  return addresses
}

const deriveVaultAddresses = (programId: string, bundle: string, mint: string): VaultAddresses => {
  const program = programId as Address
  const bundleAddress = bundle as Address
  const [pendingAuthority, pendingBump] = findPendingBundleAssetAuthorityPda(program, bundleAddress)
  const [assetAuthority, assetBump] = findBundleAssetAuthorityPda(program, bundleAddress)
  const bundleBytes = addressBytes(bundle)
  return {
    oracleData: findOraclePda(program, bundleAddress)[0],
    bundleTempData: findBundleTempDataPda(program, bundleAddress)[0],
    pendingAuthority,
    pendingAuthoritySeeds: [PENDING_AUTHORITY_SEED, bundleBytes, Uint8Array.of(pendingBump)],
    assetAuthority,
    assetAuthoritySeeds: [ASSET_AUTHORITY_SEED, bundleBytes, Uint8Array.of(assetBump)],
    pendingTokenAccount: findAssociatedTokenAddress(pendingAuthority, mint as Address)[0],
    assetTokenAccount: findAssociatedTokenAddress(assetAuthority, mint as Address)[0]
  }
}

export const valuationOf = (bundle: BundleView, oracle: OracleView): VaultValuation => vaultValuation({ bundle, oracle })

/** SPL Token Transfer by CPI; `signerSeeds` when a program authority (PDA) moves the tokens. */
export const transferTokens = (
  context: InvocationContext,
  transfer: { readonly source: string; readonly destination: string; readonly authority: string; readonly amount: bigint },
  signerSeeds?: ReadonlyArray<Uint8Array>
): void => {
  if (transfer.amount === 0n) return
  context.invoke(tokenTransfer(transfer.source, transfer.destination, transfer.authority, transfer.amount), signerSeeds === undefined ? [] : [signerSeeds])
}

/** Anchor `init`: System CreateAccount for a PDA of this program, rent paid by `payer`. */
export const createProgramAccount = (context: InvocationContext, payer: string, address: string, space: number, seeds: ReadonlyArray<Uint8Array>): Uint8Array => {
  context.invoke(systemCreateAccount(payer, address, minimumBalanceForRentExemption(space), space, context.programId), [seeds])
  return context.dataMut(address)
}

/** `emit!`: the event's discriminator and Borsh bytes as a `Program data:` line. */
export const emit = (context: InvocationContext, event: NtEvent): void => context.emitData(encodeEventFast(event))

/** Anchor's `Program log: Instruction: <Name>` line, from the IDL's snake_case name. */
export const logInstruction = (context: InvocationContext, snakeName: string): void =>
  context.log(`Instruction: ${snakeName.split("_").map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("")}`)

/** A token account the instruction pays into or out of must hold the vault's mint and belong to `owner`. */
export const checkTokenAccount = (context: InvocationContext, name: string, address: string, mint: string, owner?: string): void => {
  const account = context.account(address)
  const token = decodeTokenAccount(account.data)
  if (token === undefined || account.owner !== TOKEN_PROGRAM_ID) anchorFail("AccountNotInitialized", name)
  if (token!.mint !== mint) anchorFail("ConstraintTokenMint", name)
  if (owner !== undefined && token!.owner !== owner) anchorFail("ConstraintTokenOwner", name)
}

export const asAddress = (value: string): Address => value as Address

export const ceilDiv = (numerator: bigint, denominator: bigint): bigint => (numerator + denominator - 1n) / denominator

/** Withdrawal fee, rounded up like the deposit fee (the program's rounding here is not documented). */
export const withdrawalFee = (gross: bigint, bps: number): bigint => ceilDiv(gross * BigInt(bps), 10_000n)

import type { Address } from "@solana/kit"
import { ProjectionState } from "../../domain/projection/state.ts"
import {
  type Bundle,
  type BundleTempData,
  encodeBundle,
  encodeBundleTempData,
  encodeOracleData,
  encodeUserBundleAccount,
  type OracleData,
  type UserBundleAccount
} from "../../ntbundle/accounts.ts"
import { blankBundle, blankBundleTempData, blankOracleData, blankUserBundleAccount } from "../../ntbundle/blankAccounts.ts"
import { findBundleTempDataPda, findOraclePda, findUserBundlePda } from "../../ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../ntbundle/programs.ts"

/** Builds a `ProjectionState` from blank accounts, through `apply` like ingestion does. */
export class VaultStateFixture {
  readonly state = new ProjectionState(NTBUNDLE_PROGRAM_ID)
  #slot = 100

  constructor(asOf: { slot: number; blockTime: number } = { slot: 1_000, blockTime: 1_800_000_000 }) {
    this.state.asOf = asOf
  }

  #put(address: string, data: Uint8Array): void {
    this.state.apply({ address, owner: NTBUNDLE_PROGRAM_ID, slot: this.#slot++, data })
  }

  vault(
    address: Address,
    parts: { bundle?: Partial<Bundle>; oracle?: Partial<OracleData> | null; temp?: Partial<BundleTempData> } = {}
  ): this {
    this.#put(address, encodeBundle(blankBundle(parts.bundle)))
    if (parts.oracle !== null) this.#put(findOraclePda(NTBUNDLE_PROGRAM_ID, address)[0], encodeOracleData(blankOracleData(parts.oracle)))
    this.#put(findBundleTempDataPda(NTBUNDLE_PROGRAM_ID, address)[0], encodeBundleTempData(blankBundleTempData(parts.temp)))
    return this
  }

  position(vault: Address, owner: Address, fields: Partial<UserBundleAccount> = {}): this {
    const [account] = findUserBundlePda(NTBUNDLE_PROGRAM_ID, owner, vault)
    this.#put(account, encodeUserBundleAccount(blankUserBundleAccount(owner, fields)))
    return this
  }
}

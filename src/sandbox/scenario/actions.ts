import type { Address } from "@solana/kit"
import { Either } from "effect"
import {
  decodeBundleFast,
  decodeBundleTempDataFast,
  decodeOracleDataFast,
  decodeReferrerAccountFast,
  decodeUserBundleAccountFast
} from "../../domain/projection/accountDecoders.ts"
import type {
  Bundle,
  BundleTempData,
  OracleData,
  ReferrerAccount,
  UserBundleAccount
} from "../../ntbundle/accounts.ts"
import { buildAttributedDeposit, buildBuilderClaim, buildBuilderRegistration, buildDeposit, buildWithdraw, type VaultRef } from "../../ntbundle/builders/index.ts"
import type { BuiltInstruction } from "../../ntbundle/ix/meta.ts"
import { findReferrerPda, findUserBundlePda } from "../../ntbundle/pdas.ts"
import type { SandboxChain } from "../chain.ts"
import type { Keypair } from "../crypto/keypair.ts"
import { fromKitInstructions } from "../ntbundle/kitInstruction.ts"
import { vaultAddresses } from "../ntbundle/support.ts"
import type { SendOutcome } from "../runtime/processor.ts"

/**
 * What scenario wallets do, built exactly as a wallet would build it: the public instruction
 * builders of `src/ntbundle/builders` over the current chain state, signed by the wallet and
 * sent through the sendTransaction path. A builder's refusal (e.g. a withdrawal of zero shares)
 * returns `undefined` and sends nothing.
 */
export interface VaultState {
  readonly ref: VaultRef
  readonly bundle: Bundle
  readonly oracle: OracleData | null
  readonly temp: BundleTempData | null
}

export class ScenarioActions {
  private readonly program: Address

  constructor(private readonly chain: SandboxChain) {
    this.program = chain.programId as Address
  }

  /** Ledger records are immutable, so a decoded account stays valid for as long as its bytes are current. */
  private readonly decoded = new WeakMap<Uint8Array, unknown>()

  private decode<T>(address: string, decoder: (bytes: Uint8Array) => Either.Either<T, unknown>): T | null {
    return this.decodeData(this.programData(address), decoder)
  }

  /** The account's current bytes when the program owns it. */
  private programData(address: string): Uint8Array | undefined {
    const account = this.chain.ledger.getAccount(address)
    return account === undefined || account.owner !== this.program ? undefined : account.data
  }

  private decodeData<T>(data: Uint8Array | undefined, decoder: (bytes: Uint8Array) => Either.Either<T, unknown>): T | null {
    if (data === undefined) return null
    const cached = this.decoded.get(data)
    if (cached !== undefined) return cached as T
    const decoded = decoder(data)
    if (Either.isLeft(decoded)) return null
    this.decoded.set(data, decoded.right)
    return decoded.right
  }

  /**
   * The vault's state now. The oracle and temp data are decoded when first read (many actions
   * end before needing them), from the bytes current at this call.
   */
  vault(address: string): VaultState | null {
    const bundle = this.decode(address, decodeBundleFast)
    if (bundle === null) return null
    const pdas = vaultAddresses(this.program, address, bundle.assetAddress)
    const oracleData = this.programData(pdas.oracleData)
    const tempData = this.programData(pdas.bundleTempData)
    let oracle: OracleData | null | undefined
    let temp: BundleTempData | null | undefined
    const decodeData = this.decodeData.bind(this)
    return {
      ref: { program: this.program, bundleAddress: address as Address, bundle },
      bundle,
      get oracle() {
        if (oracle === undefined) oracle = decodeData(oracleData, decodeOracleDataFast)
        return oracle
      },
      get temp() {
        if (temp === undefined) temp = decodeData(tempData, decodeBundleTempDataFast)
        return temp
      }
    }
  }

  position(owner: string, vault: string): UserBundleAccount | null {
    return this.decode(findUserBundlePda(this.program, owner as Address, vault as Address)[0], decodeUserBundleAccountFast)
  }

  referrer(wallet: string, vault: string): ReferrerAccount | null {
    return this.decode(findReferrerPda(this.program, vault as Address, wallet as Address)[0], decodeReferrerAccountFast)
  }

  private send(signer: Keypair, plan: Either.Either<{ readonly instructions: ReadonlyArray<BuiltInstruction> }, unknown>): SendOutcome | undefined {
    if (Either.isLeft(plan)) return undefined
    return this.chain.submit({ feePayer: signer, instructions: fromKitInstructions(plan.right.instructions) })
  }

  deposit(user: Keypair, vault: VaultState, amount: bigint): SendOutcome | undefined {
    return this.send(user, buildDeposit({ vault: vault.ref, user: user.address as Address, userBundleAccount: this.position(user.address, vault.ref.bundleAddress), amount, bundleTempData: vault.temp }))
  }

  attributedDeposit(user: Keypair, vault: VaultState, amount: bigint, referrer: string): SendOutcome | undefined {
    const bundle = vault.ref.bundleAddress
    return this.send(
      user,
      buildAttributedDeposit({
        vault: vault.ref,
        user: user.address as Address,
        userBundleAccount: this.position(user.address, bundle),
        amount,
        referrer: referrer as Address,
        referrerAccount: this.referrer(referrer, bundle),
        referrerUserBundleAccount: this.position(referrer, bundle),
        bundleTempData: vault.temp
      })
    )
  }

  withdraw(user: Keypair, vault: VaultState, size: { readonly amount: bigint } | { readonly withdrawAll: true }): SendOutcome | undefined {
    const position = this.position(user.address, vault.ref.bundleAddress)
    return this.send(user, buildWithdraw({ vault: vault.ref, oracle: vault.oracle, user: user.address as Address, userBundleAccount: position, bundleTempData: vault.temp, ...size }))
  }

  claim(builder: Keypair, vault: VaultState): SendOutcome | undefined {
    const now = BigInt(this.chain.ledger.clock.blockTime())
    return this.send(builder, buildBuilderClaim({ vault: vault.ref, oracle: vault.oracle, referrer: builder.address as Address, referrerAccount: this.referrer(builder.address, vault.ref.bundleAddress), now }))
  }

  /**
   * Registration as the SDK plans it: one transaction when the builder's net deposits already
   * meet the vault's minimum, otherwise the deposit step now and `undefined` (register after
   * netting, by calling again).
   */
  registerBuilder(builder: Keypair, vault: VaultState, depositAmount?: bigint): { readonly outcome: SendOutcome | undefined; readonly registered: boolean } {
    const bundle = vault.ref.bundleAddress
    const plan = buildBuilderRegistration({
      vault: vault.ref,
      referrer: builder.address as Address,
      referrerAccount: this.referrer(builder.address, bundle),
      referrerUserBundleAccount: this.position(builder.address, bundle),
      ...(depositAmount === undefined ? {} : { depositAmount }),
      bundleTempData: vault.temp
    })
    if (Either.isLeft(plan)) return { outcome: undefined, registered: false }
    const step = plan.right
    if (step.kind === "single-transaction") return { outcome: this.send(builder, Either.right(step)), registered: true }
    return { outcome: step.depositStep === null ? undefined : this.send(builder, Either.right(step.depositStep)), registered: false }
  }
}

import type { Address } from "@solana/kit"
import { findAssociatedTokenAddress } from "../../ntbundle/pdas.ts"
import { minimumBalanceForRentExemption, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { encodeMint, encodeTokenAccount, MINT_SIZE, TOKEN_ACCOUNT_SIZE } from "../programs/tokenLayout.ts"
import type { AccountState } from "../ledger/ledger.ts"

/**
 * Token balances written at genesis (no transactions): associated token accounts credited per
 * (owner, mint), and each mint's supply equal to the sum of its accounts, so that supply
 * conservation holds from the first slot.
 */
export interface MintSpec {
  readonly address: string
  readonly decimals: number
  /** The sandbox faucet, so sandbox_airdrop can mint more. */
  readonly mintAuthority: string
}

export class TokenGenesis {
  private readonly mints = new Map<string, MintSpec>()
  private readonly balances = new Map<string, { readonly owner: string; readonly mint: string; amount: bigint }>()
  private readonly lamports = new Map<string, bigint>()

  addMint(spec: MintSpec): void {
    this.mints.set(spec.address, spec)
  }

  /** Credits `owner`'s ATA for `mint` (created if new, even with 0); returns the token account address. */
  credit(owner: string, mint: string, amount: bigint): string {
    if (!this.mints.has(mint)) throw new Error(`token genesis: unknown mint ${mint}`)
    const [address] = findAssociatedTokenAddress(owner as Address, mint as Address)
    const entry = this.balances.get(address)
    if (entry === undefined) this.balances.set(address, { owner, mint, amount })
    else entry.amount += amount
    return address
  }

  /** Gives a wallet SOL (a System account). */
  fund(owner: string, lamports: bigint): void {
    this.lamports.set(owner, (this.lamports.get(owner) ?? 0n) + lamports)
  }

  states(): Array<readonly [string, AccountState]> {
    const supply = new Map<string, bigint>()
    const out: Array<readonly [string, AccountState]> = []
    for (const [address, { owner, mint, amount }] of this.balances) {
      supply.set(mint, (supply.get(mint) ?? 0n) + amount)
      const data = encodeTokenAccount({ mint, owner, amount, delegate: null, state: "initialized", isNative: null, delegatedAmount: 0n, closeAuthority: null })
      out.push([address, { owner: TOKEN_PROGRAM_ID, lamports: minimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE), data, executable: false }])
    }
    for (const mint of this.mints.values()) {
      const data = encodeMint({ mintAuthority: mint.mintAuthority, supply: supply.get(mint.address) ?? 0n, decimals: mint.decimals, isInitialized: true, freezeAuthority: null })
      out.push([mint.address, { owner: TOKEN_PROGRAM_ID, lamports: minimumBalanceForRentExemption(MINT_SIZE), data, executable: false }])
    }
    for (const [owner, lamports] of this.lamports) out.push([owner, { owner: SYSTEM_PROGRAM_ID, lamports, data: new Uint8Array(0), executable: false }])
    return out
  }
}

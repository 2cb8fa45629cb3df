import type { Address } from "@solana/kit"
import { findUserBundlePda } from "../../ntbundle/pdas.ts"
import type { Ledger } from "../ledger/ledger.ts"
import { TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { decodeMint, decodeTokenAccount, MINT_SIZE, TOKEN_ACCOUNT_SIZE } from "../programs/tokenLayout.ts"
import { bundleView, DISCRIMINATOR, hasDiscriminator, referrerView, tempDataView, userBundleView, type UserBundleView } from "./layout.ts"
import { vaultAddresses } from "./support.ts"

/**
 * The conservation laws the program model must keep, checked against the whole ledger:
 * - every mint's supply equals the sum of its token accounts;
 * - per vault, `total_shares` = users' shares + their pending withdrawal shares + the manager's
 *   fee shares + builders' accrued and pending-claim shares;
 * - the pending token account holds exactly the users' pending deposits until netting, the
 *   asset account the underlying balance plus the netted, unprocessed deposits;
 * - the temp-data counters match the positions they count.
 * Amount fields are unsigned in the layouts (a negative value cannot even be written); signed
 * counters (net deposits, referred net deposits) may legitimately go negative.
 * Returns the violations found (empty when the ledger is consistent).
 */
export const checkInvariants = (
  ledger: Ledger,
  programId: string,
  options: {
    /** Resolves a position's vault faster than deriving its PDA against every vault (bulk ledgers). */
    readonly vaultOf?: (position: string) => string | undefined
  } = {}
): Array<string> => {
  const violations: Array<string> = []
  const owned = Array.from(ledger.accounts.ownedBy(programId))
  const vaults = owned.filter(([, record]) => hasDiscriminator(record.data, DISCRIMINATOR.Bundle)).map(([address]) => address)
  const positions = owned.filter(([, record]) => hasDiscriminator(record.data, DISCRIMINATOR.UserBundleAccount))
  const referrers = owned.filter(([, record]) => hasDiscriminator(record.data, DISCRIMINATOR.ReferrerAccount)).map(([, record]) => referrerView(record.data))

  const positionsByVault = new Map<string, Array<UserBundleView>>(vaults.map((vault) => [vault, []]))
  for (const [address, record] of positions) {
    const user = userBundleView(record.data)
    const vault =
      options.vaultOf?.(address) ?? vaults.find((candidate) => findUserBundlePda(programId as Address, user.owner as Address, candidate as Address)[0] === address)
    if (vault === undefined) violations.push(`user account ${address} belongs to no vault`)
    else positionsByVault.get(vault)!.push(user)
  }

  for (const vault of vaults) {
    const bundle = bundleView(ledger.getAccount(vault)!.data)
    const pdas = vaultAddresses(programId, vault, bundle.assetAddress)
    const tempRecord = ledger.getAccount(pdas.bundleTempData)
    if (tempRecord === undefined) {
      violations.push(`${vault}: no temp data`)
      continue
    }
    const temp = tempDataView(tempRecord.data)
    const users = positionsByVault.get(vault)!
    let shares = bundle.managerPfeeShares + bundle.managerMfeeShares
    let pendingDeposits = 0n
    let depositors = 0n
    let withdrawers = 0n
    for (const user of users) {
      shares += user.shares + user.pendingShares
      pendingDeposits += user.pendingDeposit
      if (user.pendingDeposit > 0n) depositors++
      if (user.pendingShares > 0n) withdrawers++
    }
    for (const referrer of referrers) {
      if (referrer.bundle === vault) shares += referrer.accruedPfeeShares + referrer.accruedMfeeShares + referrer.pendingWithdrawShares
    }
    const expect = (what: string, actual: bigint, expected: bigint): void => {
      if (actual !== expected) violations.push(`${vault}: ${what} is ${actual}, expected ${expected}`)
    }
    expect("total_shares", bundle.totalShares, shares)
    expect("cumulative_pending_deposits", temp.cumulativePendingDeposits, pendingDeposits)
    expect("pending_deposits_counter", temp.pendingDepositsCounter, depositors)
    expect("pending_withdrawals_counter", temp.pendingWithdrawalsCounter, withdrawers)
    const balance = (tokenAccount: string): bigint => decodeTokenAccount(ledger.getAccount(tokenAccount)?.data ?? new Uint8Array(0))?.amount ?? 0n
    const netted = temp.isNettingDone ? temp.cumulativePendingDeposits : 0n
    expect("pending token account", balance(pdas.pendingTokenAccount), temp.cumulativePendingDeposits - netted)
    expect("asset token account", balance(pdas.assetTokenAccount), bundle.bundleUnderlyingBalance + netted)
  }

  const supply = new Map<string, bigint>()
  for (const [, record] of ledger.accounts.ownedBy(TOKEN_PROGRAM_ID)) {
    if (record.data.length !== TOKEN_ACCOUNT_SIZE) continue
    const account = decodeTokenAccount(record.data)
    if (account !== undefined && account.state !== "uninitialized") supply.set(account.mint, (supply.get(account.mint) ?? 0n) + account.amount)
  }
  for (const [address, record] of ledger.accounts.ownedBy(TOKEN_PROGRAM_ID)) {
    if (record.data.length !== MINT_SIZE) continue
    const mint = decodeMint(record.data)
    if (mint?.isInitialized === true && mint.supply !== (supply.get(address) ?? 0n)) {
      violations.push(`mint ${address}: supply ${mint.supply}, accounts hold ${supply.get(address) ?? 0n}`)
    }
  }
  return violations
}

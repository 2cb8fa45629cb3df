import { totalEquity } from "../../ntbundle/math.ts"
import type { VaultView } from "../projection/state.ts"
import { reason, type RejectionReason } from "./rejections.ts"

/**
 * The vault-level conditions for accepting a deposit request of `amount` gross (`netAmount` after
 * the deposit fee), in the order reported: the vault's oracle and temp accounts exist, it is not
 * paused, the amount meets its minimum, fits its cap, and no netting is under way. Null = accepted.
 * User-level conditions (permissioned vault, token balance) are the build's.
 */
export const vaultDepositRejection = (view: VaultView, amount: bigint, netAmount: bigint): RejectionReason | null => {
  const { bundle, oracle, temp } = view
  if (oracle === null) return reason("ORACLE_DATA_NOT_FOUND", `no oracle account for ${view.address}`)
  if (temp === null) return reason("BUNDLE_TEMP_DATA_NOT_FOUND", `no temp data account for ${view.address}`)
  if (temp.pausedDepositsWithdrawals) return reason("VAULT_PAUSED", `deposits and withdrawals are paused on ${view.address}`)
  if (amount < bundle.minDepositAmount) {
    return reason("MIN_DEPOSIT_AMOUNT_NOT_MET", `deposit ${amount} is below the vault minimum ${bundle.minDepositAmount}`)
  }
  if (bundle.maxDepositAmount > 0n) {
    // the program compares equity plus every pending deposit plus this net deposit with the cap
    const committed = totalEquity({ bundle, oracle }) + temp.cumulativePendingDeposits
    if (committed + netAmount > bundle.maxDepositAmount) {
      const room = bundle.maxDepositAmount > committed ? bundle.maxDepositAmount - committed : 0n
      return reason(
        "MAX_DEPOSIT_AMOUNT_EXCEEDED",
        `the vault cap ${bundle.maxDepositAmount} leaves room for ${room} more net of fees; this deposit adds ${netAmount}`
      )
    }
  }
  if (temp.isNettingDone) {
    return reason("NETTING_IN_PROGRESS", "the keeper is processing this cycle's deposits; request again once it has finished")
  }
  return null
}

import type { TokenBalance } from "../ledger/transaction-store.ts"
import { TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { decodeMint, decodeTokenAccount, TOKEN_ACCOUNT_SIZE } from "../programs/token-layout.ts"

type ReadAccount = (address: string) => { readonly owner: string; readonly data: Uint8Array } | undefined

/** `preTokenBalances` / `postTokenBalances`: one row per account key that is an initialized token account. */
export const tokenBalancesOf = (accountKeys: ReadonlyArray<string>, read: ReadAccount): TokenBalance[] => {
  const rows: TokenBalance[] = []
  for (let accountIndex = 0; accountIndex < accountKeys.length; accountIndex++) {
    const account = read(accountKeys[accountIndex]!)
    if (account === undefined || account.owner !== TOKEN_PROGRAM_ID || account.data.length !== TOKEN_ACCOUNT_SIZE) continue
    const token = decodeTokenAccount(account.data)
    if (token === undefined || token.state === "uninitialized") continue
    const mintAccount = read(token.mint)
    const decimals = mintAccount === undefined ? 0 : (decodeMint(mintAccount.data)?.decimals ?? 0)
    rows.push({ accountIndex, mint: token.mint, owner: token.owner, programId: TOKEN_PROGRAM_ID, amount: token.amount, decimals })
  }
  return rows
}

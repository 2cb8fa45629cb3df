import { readAddress, readU64 } from "../codec/bytes.ts"
import type { TokenBalance } from "../ledger/transactionStore.ts"
import { TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { MINT_SIZE, TOKEN_ACCOUNT_SIZE } from "../programs/tokenLayout.ts"

type ReadAccount = (address: string) => { readonly owner: string; readonly data: Uint8Array } | undefined

/**
 * `preTokenBalances` / `postTokenBalances`: one row per account key that is an initialized token
 * account. Runs twice per transaction, so it reads only the fields it reports.
 */
export const tokenBalancesOf = (accountKeys: ReadonlyArray<string>, read: ReadAccount): TokenBalance[] => {
  const rows: TokenBalance[] = []
  const decimalsByMint = new Map<string, number>()
  for (let accountIndex = 0; accountIndex < accountKeys.length; accountIndex++) {
    const account = read(accountKeys[accountIndex]!)
    if (account === undefined || account.owner !== TOKEN_PROGRAM_ID || account.data.length !== TOKEN_ACCOUNT_SIZE || account.data[108] === 0) continue
    const mint = readAddress(account.data, 0)
    let decimals = decimalsByMint.get(mint)
    if (decimals === undefined) {
      const mintData = read(mint)?.data
      decimals = mintData !== undefined && mintData.length === MINT_SIZE ? mintData[44]! : 0
      decimalsByMint.set(mint, decimals)
    }
    rows.push({ accountIndex, mint, owner: readAddress(account.data, 32), programId: TOKEN_PROGRAM_ID, amount: readU64(account.data, 64), decimals })
  }
  return rows
}

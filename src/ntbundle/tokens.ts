import { address, type Address } from "@solana/kit"
import type { Cluster } from "./programs.ts"

/** Deposit-token symbols as the vault registry spells them. */
export const DEPOSIT_TOKEN_SYMBOLS = ["USDC", "USDT", "USDE", "SOL", "WBTC", "WETH", "JLP"] as const
export type DepositTokenSymbol = (typeof DEPOSIT_TOKEN_SYMBOLS)[number]

export interface TokenInfo {
  /** Registry symbol. */
  readonly symbol: DepositTokenSymbol
  /** How the token is usually written (USDe, wSOL, ...). */
  readonly displaySymbol: string
  readonly mint: Address
  readonly decimals: number
}

const token = (symbol: DepositTokenSymbol, displaySymbol: string, mint: string, decimals: number): TokenInfo => ({
  symbol,
  displaySymbol,
  mint: address(mint),
  decimals
})

const MAINNET_TOKENS: Readonly<Record<DepositTokenSymbol, TokenInfo>> = {
  USDC: token("USDC", "USDC", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", 6),
  USDT: token("USDT", "USDT", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", 6),
  USDE: token("USDE", "USDe", "DEkqHyPN7GMRJ5cArtQFAWefqbZb33Hyf6s5iCwjEonT", 9),
  SOL: token("SOL", "wSOL", "So11111111111111111111111111111111111111112", 9),
  WBTC: token("WBTC", "WBTC", "3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh", 8),
  WETH: token("WETH", "WETH", "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs", 8),
  JLP: token("JLP", "JLP", "27G8MtK7VtTcCHkpASjSDdkWWYfoqT6ggEuKidVJidD4", 6)
}

/** Devnet differs only where the SDK overrides a mint (its test USDC). */
const DEVNET_OVERRIDES: Partial<Readonly<Record<DepositTokenSymbol, TokenInfo>>> = {
  USDC: token("USDC", "USDC", "6a8hWCCa2QDQTqzLUapZwZtgHTox8BsgataN6JVLwdo7", 6)
}

export const isDepositTokenSymbol = (value: string): value is DepositTokenSymbol =>
  (DEPOSIT_TOKEN_SYMBOLS as ReadonlyArray<string>).includes(value)

/**
 * The registry's token for a symbol on a cluster. Informational: on chain, `bundle.assetAddress`
 * and `bundle.assetDecimals` are authoritative.
 */
export const tokenBySymbol = (cluster: Cluster, symbol: DepositTokenSymbol): TokenInfo =>
  (cluster === "devnet" ? DEVNET_OVERRIDES[symbol] : undefined) ?? MAINNET_TOKENS[symbol]

export const tokenByMint = (cluster: Cluster, mint: Address): TokenInfo | undefined =>
  DEPOSIT_TOKEN_SYMBOLS.map((symbol) => tokenBySymbol(cluster, symbol)).find((info) => info.mint === mint)

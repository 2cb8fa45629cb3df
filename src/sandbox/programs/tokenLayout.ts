import { readAddress, readU32, readU64, writeU32, writeU64 } from "../codec/bytes.ts"
import { addressToBytes } from "../crypto/keypair.ts"

/** SPL Token's account layouts, byte for byte: Mint (82 bytes) and token Account (165 bytes). */
export const MINT_SIZE = 82
export const TOKEN_ACCOUNT_SIZE = 165

export interface Mint {
  readonly mintAuthority: string | null
  readonly supply: bigint
  readonly decimals: number
  readonly isInitialized: boolean
  readonly freezeAuthority: string | null
}

export type TokenAccountState = "uninitialized" | "initialized" | "frozen"

export interface TokenAccount {
  readonly mint: string
  readonly owner: string
  readonly amount: bigint
  readonly delegate: string | null
  readonly state: TokenAccountState
  readonly isNative: bigint | null
  readonly delegatedAmount: bigint
  readonly closeAuthority: string | null
}

const STATES: ReadonlyArray<TokenAccountState> = ["uninitialized", "initialized", "frozen"]

const readOptionalAddress = (data: Uint8Array, offset: number): string | null =>
  readU32(data, offset) === 1 ? readAddress(data, offset + 4) : null

const writeOptionalAddress = (data: Uint8Array, offset: number, value: string | null): void => {
  writeU32(data, offset, value === null ? 0 : 1)
  data.set(value === null ? new Uint8Array(32) : addressToBytes(value), offset + 4)
}

export const decodeMint = (data: Uint8Array): Mint | undefined => {
  if (data.length !== MINT_SIZE) return undefined
  return {
    mintAuthority: readOptionalAddress(data, 0),
    supply: readU64(data, 36),
    decimals: data[44]!,
    isInitialized: data[45] === 1,
    freezeAuthority: readOptionalAddress(data, 46)
  }
}

export const encodeMint = (mint: Mint): Uint8Array => {
  const data = new Uint8Array(MINT_SIZE)
  writeOptionalAddress(data, 0, mint.mintAuthority)
  writeU64(data, 36, mint.supply)
  data[44] = mint.decimals
  data[45] = mint.isInitialized ? 1 : 0
  writeOptionalAddress(data, 46, mint.freezeAuthority)
  return data
}

export const decodeTokenAccount = (data: Uint8Array): TokenAccount | undefined => {
  if (data.length !== TOKEN_ACCOUNT_SIZE) return undefined
  const state = STATES[data[108]!]
  if (state === undefined) return undefined
  return {
    mint: readAddress(data, 0),
    owner: readAddress(data, 32),
    amount: readU64(data, 64),
    delegate: readOptionalAddress(data, 72),
    state,
    isNative: readU32(data, 109) === 1 ? readU64(data, 113) : null,
    delegatedAmount: readU64(data, 121),
    closeAuthority: readOptionalAddress(data, 129)
  }
}

export const encodeTokenAccount = (account: TokenAccount): Uint8Array => {
  const data = new Uint8Array(TOKEN_ACCOUNT_SIZE)
  data.set(addressToBytes(account.mint), 0)
  data.set(addressToBytes(account.owner), 32)
  writeU64(data, 64, account.amount)
  writeOptionalAddress(data, 72, account.delegate)
  data[108] = STATES.indexOf(account.state)
  writeU32(data, 109, account.isNative === null ? 0 : 1)
  writeU64(data, 113, account.isNative ?? 0n)
  writeU64(data, 121, account.delegatedAmount)
  writeOptionalAddress(data, 129, account.closeAuthority)
  return data
}

/** Token amount as a decimal string without trailing zeros, as `uiAmountString` shows it. */
export const formatUiAmount = (amount: bigint, decimals: number): string => {
  if (decimals === 0) return amount.toString()
  const digits = amount.toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "")
  return fraction.length === 0 ? whole : `${whole}.${fraction}`
}

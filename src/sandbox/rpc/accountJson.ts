import { encodeBase58 } from "../../ntbundle/base58.ts"
import { toBase64 } from "../codec/bytes.ts"
import { stringifyJson } from "../codec/json.ts"
import { TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { decodeMint, decodeTokenAccount, formatUiAmount, MINT_SIZE, TOKEN_ACCOUNT_SIZE } from "../programs/tokenLayout.ts"
import { invalidParams, paramError } from "./rpcError.ts"
import { isRecord } from "./params.ts"

/**
 * Account objects as RPC nodes write them (`{"data":...,"executable":..,"lamports":..,"owner":..,
 * "rentEpoch":..,"space":..}`), encoded straight to JSON text so that one encoding can be reused
 * for every subscriber and every response that carries the same account state.
 *
 * Encodings: base64, base58 (data under 129 bytes), legacy `binary` (a bare base58 string, the
 * default when none is given), and jsonParsed for SPL Token mints and token accounts (other
 * accounts fall back to base64, as nodes do). base64+zstd is refused: Node 20 has no zstd.
 */
export type AccountEncoding = "base64" | "base58" | "binary" | "jsonParsed"

export interface DataSlice {
  readonly offset: number
  readonly length: number
}

export interface EncodableAccount {
  readonly owner: string
  readonly lamports: bigint
  readonly data: Uint8Array
  readonly executable: boolean
}

/** Every account is rent-exempt in the sandbox: nodes report u64::MAX for those. */
const RENT_EPOCH = "18446744073709551615"
const MAX_BASE58_BYTES = 128

export const readEncoding = (value: unknown, fallback: AccountEncoding): AccountEncoding => {
  if (value === undefined || value === null) return fallback
  if (value === "base64" || value === "base58" || value === "binary" || value === "jsonParsed") return value
  if (value === "base64+zstd") throw paramError("base64+zstd encoding is not supported by the sandbox; use base64")
  throw invalidParams(`unknown variant \`${String(value)}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\``)
}

export const readDataSlice = (value: unknown): DataSlice | undefined => {
  if (value === undefined || value === null) return undefined
  if (!isRecord(value)) throw invalidParams("invalid type: dataSlice must be {offset, length}")
  const { offset, length } = value
  if (typeof offset !== "number" || typeof length !== "number" || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw invalidParams("invalid dataSlice: offset and length must be non-negative integers")
  }
  return { offset, length }
}

/** Rejects base58 for accounts too large for it, with the node's message. */
export const checkBase58Size = (encoding: AccountEncoding, dataLength: number, slice: DataSlice | undefined): void => {
  if (encoding !== "base58" && encoding !== "binary") return
  const length = slice === undefined ? dataLength : Math.max(0, Math.min(slice.length, dataLength - slice.offset))
  if (length > MAX_BASE58_BYTES) {
    throw paramError(`Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`)
  }
}

const sliced = (data: Uint8Array, slice: DataSlice | undefined): Uint8Array =>
  slice === undefined ? data : data.subarray(Math.min(slice.offset, data.length), Math.min(slice.offset + slice.length, data.length))

/** Looks up a mint's decimals for jsonParsed token accounts. */
export type MintDecimals = (mint: string) => number | undefined

/** A `uiTokenAmount` object's text (token accounts and transactions' token balances). */
export const tokenAmountJson = (amount: bigint, decimals: number): string =>
  `{"amount":"${amount}","decimals":${decimals},"uiAmount":${stringifyJson(Number(amount) / 10 ** decimals)},"uiAmountString":"${formatUiAmount(amount, decimals)}"}`

const parsedTokenData = (account: EncodableAccount, mintDecimals: MintDecimals): string | undefined => {
  if (account.owner !== TOKEN_PROGRAM_ID) return undefined
  if (account.data.length === TOKEN_ACCOUNT_SIZE) {
    const token = decodeTokenAccount(account.data)
    const decimals = token === undefined ? undefined : mintDecimals(token.mint)
    if (token === undefined || token.state === "uninitialized" || decimals === undefined) return undefined
    let info = `{"isNative":${token.isNative !== null},"mint":"${token.mint}","owner":"${token.owner}","state":"${token.state}","tokenAmount":${tokenAmountJson(token.amount, decimals)}`
    if (token.delegate !== null) info += `,"delegate":"${token.delegate}","delegatedAmount":${tokenAmountJson(token.delegatedAmount, decimals)}`
    if (token.closeAuthority !== null) info += `,"closeAuthority":"${token.closeAuthority}"`
    info += "}"
    return `{"parsed":{"info":${info},"type":"account"},"program":"spl-token","space":${TOKEN_ACCOUNT_SIZE}}`
  }
  if (account.data.length === MINT_SIZE) {
    const mint = decodeMint(account.data)
    if (mint === undefined || !mint.isInitialized) return undefined
    const info = `{"decimals":${mint.decimals},"freezeAuthority":${stringifyJson(mint.freezeAuthority)},"isInitialized":true,"mintAuthority":${stringifyJson(mint.mintAuthority)},"supply":"${mint.supply}"}`
    return `{"parsed":{"info":${info},"type":"mint"},"program":"spl-token","space":${MINT_SIZE}}`
  }
  return undefined
}

export const encodeAccountData = (
  account: EncodableAccount,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
  mintDecimals: MintDecimals
): string => {
  if (encoding === "jsonParsed" && slice === undefined) {
    const parsed = parsedTokenData(account, mintDecimals)
    if (parsed !== undefined) return parsed
  }
  const bytes = sliced(account.data, slice)
  if (encoding === "binary") return `"${encodeBase58(bytes)}"`
  if (encoding === "base58") return `["${encodeBase58(bytes)}","base58"]`
  return `["${toBase64(bytes)}","base64"]`
}

export const encodeAccount = (
  account: EncodableAccount,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
  mintDecimals: MintDecimals
): string =>
  `{"data":${encodeAccountData(account, encoding, slice, mintDecimals)},"executable":${account.executable},"lamports":${account.lamports},"owner":"${account.owner}","rentEpoch":${RENT_EPOCH},"space":${account.data.length}}`

import { JsonStream, RawJson, type JsonValue } from "../codec/json.ts"
import { addressToBytes } from "../crypto/keypair.ts"
import type { AccountRecord } from "../ledger/accountStore.ts"
import { TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { decodeMint, decodeTokenAccount, formatUiAmount, TOKEN_ACCOUNT_SIZE } from "../programs/tokenLayout.ts"
import { checkBase58Size, encodeAccount, readDataSlice, readEncoding, type AccountEncoding, type DataSlice } from "./accountJson.ts"
import { contextSlot, mintDecimalsFrom, SOLANA_CORE_VERSION, withContext, type RpcEnvironment, type RpcMethod } from "./environment.ts"
import { matchesFilters, readFilters } from "./filters.ts"
import { isRecord, readAddress, readConfig, readContextConfig, readOptionalBoolean, requireParam, type Params } from "./params.ts"
import { invalidParam, invalidParams, paramError } from "./rpcError.ts"

/**
 * Account reads. Approximation: account state is always the tip's (processed = confirmed), and
 * the answer's context slot is the tip, whatever commitment is asked; a node would answer a
 * finalized read from the finalized bank. minContextSlot is honoured.
 */
interface AccountReadConfig {
  readonly slot: number
  readonly encoding: AccountEncoding
  readonly slice: DataSlice | undefined
}

const readAccountConfig = (environment: RpcEnvironment, value: unknown, fallback: AccountEncoding): AccountReadConfig => {
  const config = readConfig(value)
  const { minContextSlot } = readContextConfig(config)
  return {
    slot: contextSlot(environment, { commitment: "processed", minContextSlot }),
    encoding: readEncoding(config["encoding"], fallback),
    slice: readDataSlice(config["dataSlice"])
  }
}

const accountJson = (environment: RpcEnvironment, record: AccountRecord | undefined, config: AccountReadConfig): JsonValue => {
  if (record === undefined) return null
  checkBase58Size(config.encoding, record.data.length, config.slice)
  return new RawJson(encodeAccount(record, config.encoding, config.slice, mintDecimalsFrom(environment.ledger)))
}

const keyedAccountsStream = (
  environment: RpcEnvironment,
  accounts: ReadonlyArray<readonly [string, AccountRecord]>,
  config: AccountReadConfig,
  withSlotContext: boolean
): JsonStream => {
  for (const [, record] of accounts) checkBase58Size(config.encoding, record.data.length, config.slice)
  const mintDecimals = mintDecimalsFrom(environment.ledger)
  return new JsonStream(function* () {
    if (withSlotContext) yield `{"context":{"apiVersion":"${SOLANA_CORE_VERSION}","slot":${config.slot}},"value":`
    yield "["
    for (let index = 0; index < accounts.length; index++) {
      const [address, record] = accounts[index]!
      yield `${index === 0 ? "" : ","}{"account":${encodeAccount(record, config.encoding, config.slice, mintDecimals)},"pubkey":"${address}"}`
    }
    yield withSlotContext ? "]}" : "]"
  })
}

const tokenAmount = (amount: bigint, decimals: number): JsonValue => ({
  amount: amount.toString(),
  decimals,
  uiAmount: Number(amount) / 10 ** decimals,
  uiAmountString: formatUiAmount(amount, decimals)
})

/** Whether the token account's owner field (bytes 32..64) and, optionally, mint (0..32) match. */
const tokenAccountMatches = (data: Uint8Array, owner: Uint8Array, mint: Uint8Array | undefined): boolean => {
  if (data.length !== TOKEN_ACCOUNT_SIZE || data[108] === 0) return false
  for (let index = 0; index < 32; index++) if (data[32 + index] !== owner[index]) return false
  if (mint !== undefined) for (let index = 0; index < 32; index++) if (data[index] !== mint[index]) return false
  return true
}

const readTokenAccountsFilter = (value: unknown): { readonly mint: Uint8Array | undefined } => {
  if (!isRecord(value)) throw invalidParams("invalid type: expected {mint} or {programId}")
  if (typeof value["mint"] === "string") return { mint: addressToBytes(readAddress(value["mint"])) }
  if (typeof value["programId"] === "string") {
    if (readAddress(value["programId"]) !== TOKEN_PROGRAM_ID) throw invalidParam("unrecognized Token program id")
    return { mint: undefined }
  }
  throw invalidParams("invalid type: expected {mint} or {programId}")
}

const readMultipleAddresses = (params: Params): ReadonlyArray<string> => {
  const addresses = requireParam(params, 0, "an array of addresses")
  if (!Array.isArray(addresses)) throw invalidParams("invalid type: expected an array of addresses")
  if (addresses.length > 100) throw paramError("Too many inputs provided; max 100")
  return addresses.map(readAddress)
}

export const accountMethods: Record<string, RpcMethod> = {
  getAccountInfo: (params, environment) => {
    const address = readAddress(requireParam(params, 0, "an address"))
    const config = readAccountConfig(environment, params[1], "binary")
    return withContext(config.slot, accountJson(environment, environment.ledger.getAccount(address), config))
  },
  getMultipleAccounts: (params, environment) => {
    const addresses = readMultipleAddresses(params)
    const config = readAccountConfig(environment, params[1], "base64")
    return withContext(config.slot, addresses.map((address) => accountJson(environment, environment.ledger.getAccount(address), config)))
  },
  getBalance: (params, environment) => {
    const address = readAddress(requireParam(params, 0, "an address"))
    const config = readAccountConfig(environment, params[1], "base64")
    return withContext(config.slot, environment.ledger.getAccount(address)?.lamports ?? 0n)
  },
  getProgramAccounts: (params, environment) => {
    const programId = readAddress(requireParam(params, 0, "a program id"))
    const rawConfig = readConfig(params[1])
    const config = readAccountConfig(environment, rawConfig, "binary")
    const filters = readFilters(rawConfig["filters"])
    const matching: Array<readonly [string, AccountRecord]> = []
    for (const entry of environment.ledger.accounts.ownedBy(programId)) {
      if (matchesFilters(entry[1].data, filters)) matching.push(entry)
    }
    return keyedAccountsStream(environment, matching, config, readOptionalBoolean(rawConfig["withContext"], "withContext") === true)
  },
  getTokenAccountsByOwner: (params, environment) => {
    const owner = addressToBytes(readAddress(requireParam(params, 0, "an owner address")))
    const { mint } = readTokenAccountsFilter(requireParam(params, 1, "a mint or program filter"))
    const config = readAccountConfig(environment, params[2], "binary")
    const matching: Array<readonly [string, AccountRecord]> = []
    for (const entry of environment.ledger.accounts.ownedBy(TOKEN_PROGRAM_ID)) {
      if (tokenAccountMatches(entry[1].data, owner, mint)) matching.push(entry)
    }
    return keyedAccountsStream(environment, matching, config, true)
  },
  getTokenAccountBalance: (params, environment) => {
    const address = readAddress(requireParam(params, 0, "a token account address"))
    const config = readAccountConfig(environment, params[1], "base64")
    const record = environment.ledger.getAccount(address)
    if (record === undefined) throw invalidParam("could not find account")
    const token = record.owner === TOKEN_PROGRAM_ID ? decodeTokenAccount(record.data) : undefined
    if (token === undefined) throw invalidParam("not a Token account")
    const decimals = mintDecimalsFrom(environment.ledger)(token.mint)
    if (decimals === undefined) throw invalidParam("could not find mint")
    return withContext(config.slot, tokenAmount(token.amount, decimals))
  },
  getTokenSupply: (params, environment) => {
    const address = readAddress(requireParam(params, 0, "a mint address"))
    const config = readAccountConfig(environment, params[1], "base64")
    const record = environment.ledger.getAccount(address)
    const mint = record !== undefined && record.owner === TOKEN_PROGRAM_ID ? decodeMint(record.data) : undefined
    if (mint === undefined) throw invalidParam("not a Token mint")
    return withContext(config.slot, tokenAmount(mint.supply, mint.decimals))
  }
}

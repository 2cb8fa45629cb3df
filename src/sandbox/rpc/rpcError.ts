import type { JsonValue } from "../codec/json.ts"

/** A JSON-RPC error answer, with Solana's codes and messages. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: JsonValue
  ) {
    super(message)
  }
}

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600
export const METHOD_NOT_FOUND = -32601
export const INVALID_PARAMS = -32602
export const INTERNAL_ERROR = -32603
export const SEND_TRANSACTION_PREFLIGHT_FAILURE = -32002
export const TRANSACTION_SIGNATURE_VERIFICATION_FAILURE = -32003
export const BLOCK_NOT_AVAILABLE = -32004
export const TRANSACTION_HISTORY_NOT_AVAILABLE = -32011
export const UNSUPPORTED_TRANSACTION_VERSION = -32015
export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016

/** Parameters that do not parse (missing, wrong type, unknown variant): `Invalid params: <detail>`. */
export const invalidParams = (detail: string): RpcError => new RpcError(INVALID_PARAMS, `Invalid params: ${detail}`)

/** Parameters that parse but that a method refuses: the node words these itself, without a prefix. */
export const paramError = (message: string): RpcError => new RpcError(INVALID_PARAMS, message)

/** Solana words rejections of a single parameter as `Invalid param: ...`. */
export const invalidParam = (detail: string): RpcError => paramError(`Invalid param: ${detail}`)

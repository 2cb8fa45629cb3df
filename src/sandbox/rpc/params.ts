import { decodeBase58Exact } from "../../ntbundle/base58.ts"
import type { Commitment } from "../ledger/chainClock.ts"
import { invalidParam, invalidParams } from "./rpcError.ts"

/** Readers for positional JSON-RPC params, failing with Solana's invalid-params answers. */
export type Params = ReadonlyArray<unknown>

export interface ContextConfig {
  readonly commitment: Commitment
  readonly minContextSlot: number | undefined
}

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const requireParam = (params: Params, index: number, expected: string): unknown => {
  const value = params[index]
  if (value === undefined) throw invalidParams(`invalid length ${params.length}, expected ${expected}`)
  return value
}

export const readAddress = (value: unknown): string => {
  if (typeof value !== "string") throw invalidParams("invalid type: expected a base58 address string")
  const bytes = decodeBase58Exact(value, 32)
  if (bytes === undefined) throw invalidParam(value.length > 44 || value.length < 32 ? "WrongSize" : "Invalid")
  return value
}

export const readSignature = (value: unknown): string => {
  if (typeof value !== "string" || decodeBase58Exact(value, 64) === undefined) throw invalidParam("Invalid")
  return value
}

export const readConfig = (value: unknown): Readonly<Record<string, unknown>> => {
  if (value === undefined || value === null) return {}
  if (!isRecord(value)) throw invalidParams("invalid type: expected a configuration object")
  return value
}

export const readCommitment = (value: unknown, fallback: Commitment = "finalized"): Commitment => {
  if (value === undefined || value === null) return fallback
  if (value === "processed" || value === "confirmed" || value === "finalized") return value
  // Deprecated aliases that nodes still accept.
  if (value === "recent") return "processed"
  if (value === "single" || value === "singleGossip") return "confirmed"
  if (value === "root" || value === "max") return "finalized"
  throw invalidParams(`unknown variant \`${String(value)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``)
}

export const readContextConfig = (config: Readonly<Record<string, unknown>>): ContextConfig => ({
  commitment: readCommitment(config["commitment"]),
  minContextSlot: readOptionalInteger(config["minContextSlot"], "minContextSlot")
})

export const readOptionalInteger = (value: unknown, name: string): number | undefined => {
  if (value === undefined || value === null) return undefined
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw invalidParams(`invalid value for ${name}: expected a non-negative integer`)
  return value
}

export const readOptionalString = (value: unknown, name: string): string | undefined => {
  if (value === undefined || value === null) return undefined
  if (typeof value !== "string") throw invalidParams(`invalid type for ${name}: expected a string`)
  return value
}

export const readOptionalBoolean = (value: unknown, name: string): boolean | undefined => {
  if (value === undefined || value === null) return undefined
  if (typeof value !== "boolean") throw invalidParams(`invalid type for ${name}: expected a boolean`)
  return value
}

/** u64 amounts given as a JSON integer or a decimal string. */
export const readAmount = (value: unknown, name: string): bigint => {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === "bigint" && value >= 0n) return value
  if (typeof value === "string" && /^\d{1,20}$/.test(value) && BigInt(value) < 2n ** 64n) return BigInt(value)
  throw invalidParams(`invalid value for ${name}: expected a u64 amount`)
}

import { addressBytesOf, addressTextOf } from "../../src/ntbundle/addressBytes.ts"
import { bytesEqual } from "../../src/ntbundle/bytes.ts"
import { PROCESS_DEPOSIT_DISCRIMINATOR, PROCESS_WITHDRAWAL_DISCRIMINATOR } from "../../src/ntbundle/generated/instructions.ts"
import type { CompiledInstruction } from "./wireMessage.ts"

/**
 * Keeper instructions whose events (`Allocated`, `Redeemed`) do not name the user, and the
 * position of `user_bundle_account_owner` among their accounts (facts §5.7).
 */
const OWNER_ACCOUNT: ReadonlyArray<{ readonly discriminator: Uint8Array; readonly account: number }> = [
  { discriminator: PROCESS_DEPOSIT_DISCRIMINATOR, account: 3 },
  { discriminator: PROCESS_WITHDRAWAL_DISCRIMINATOR, account: 1 }
]

const startsWith = (data: Uint8Array, prefix: Uint8Array): boolean =>
  data.length >= prefix.length && prefix.every((byte, i) => data[i] === byte)

/** The addresses v0 lookup tables loaded, as `getTransaction` reports them in `meta.loadedAddresses`. */
export interface LoadedAddresses {
  readonly writable?: ReadonlyArray<string>
  readonly readonly?: ReadonlyArray<string>
}

/**
 * For each top-level instruction of a message, in message order: the position owner it names when
 * it is `programId`'s `process_deposit` (account 3) or `process_withdrawal` (account 1), else null.
 * Account indexes past the static keys address the loaded addresses, writable ones then readonly
 * ones; an index past those too leaves the owner unknown (null).
 */
export const positionOwnersByInstruction = (
  accountKeys: ReadonlyArray<Uint8Array>,
  instructions: ReadonlyArray<CompiledInstruction>,
  loaded: LoadedAddresses | null | undefined,
  programId: string
): Array<string | null> => {
  const loadedKeys = [...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])]
  const addressAt = (index: number): string | null => {
    const key = accountKeys[index]
    if (key !== undefined) return addressTextOf(key)
    return loadedKeys[index - accountKeys.length] ?? null
  }
  const programKey = addressBytesOf(programId)
  const isProgram = (index: number): boolean => {
    const key = accountKeys[index]
    // compared as bytes: no base58 text for every instruction's program
    if (key !== undefined) return programKey !== null && bytesEqual(key, programKey)
    return loadedKeys[index - accountKeys.length] === programId
  }
  return instructions.map((instruction) => {
    if (!isProgram(instruction.programIdIndex)) return null
    const rule = OWNER_ACCOUNT.find(({ discriminator }) => startsWith(instruction.data, discriminator))
    if (rule === undefined) return null
    const index = instruction.accountIndexes[rule.account]
    return index === undefined ? null : addressAt(index)
  })
}

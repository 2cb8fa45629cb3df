import type { Address } from "@solana/kit"
import { MEMO_PROGRAM_ID } from "../programs.ts"
import { instruction, type BuiltInstruction } from "./meta.ts"

/** A memo with no signer accounts: UTF-8 text as the whole instruction data. */
export const memoIx = (text: string): BuiltInstruction =>
  instruction(MEMO_PROGRAM_ID, [], new TextEncoder().encode(text))

/** The points-attribution memo appended after request_deposit in an attributed first deposit. */
export const attributionMemoText = (referrer: Address): string => `NT_REF=v1|op=register|ref=${referrer}`

import { fail } from "../runtime/errors.ts"
import type { InvocationContext, ProgramHandler } from "../runtime/program.ts"
import { MEMO_PROGRAM_ID, MEMO_V1_PROGRAM_ID } from "./ids.ts"

/** SPL Memo (v2 and v1): every account passed must sign; the memo must be UTF-8; it is logged. */
const utf8 = new TextDecoder("utf-8", { fatal: true })

export const decodeMemo = (data: Uint8Array): string | undefined => {
  try {
    return utf8.decode(data)
  } catch {
    return undefined
  }
}

const execute = (context: InvocationContext): void => {
  for (const meta of context.instruction.accounts) {
    if (!meta.isSigner) fail("MissingRequiredSignature", "Signature missing")
  }
  const memo = decodeMemo(context.instruction.data)
  if (memo === undefined) fail("InvalidInstructionData", "Invalid UTF-8")
  context.consumeComputeUnits(Math.ceil(context.instruction.data.length * 12))
  context.log(`Memo (len ${context.instruction.data.length}): ${JSON.stringify(memo)}`)
}

const memoProgram = (programId: string): ProgramHandler => ({
  programId,
  name: "memo",
  kind: "bpf",
  baseComputeUnits: 2_000,
  execute
})

export const memoProgramV2 = memoProgram(MEMO_PROGRAM_ID)
export const memoProgramV1 = memoProgram(MEMO_V1_PROGRAM_ID)

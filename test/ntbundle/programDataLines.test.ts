import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { fromBase64 } from "../../src/ntbundle/bytes.ts"
import { programDataFromLogs } from "../../src/ntbundle/events.ts"

const PROGRAM = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"

// The plain reading of the log structure (every line tried against every pattern in turn), which
// the shortcut for data lines must not change.
const reference = (logs: ReadonlyArray<string>, programId: string) => {
  const stack: Array<string> = []
  const lines: Array<{ index: number; topLevel: number; bytes: Uint8Array }> = []
  let dataLines = 0
  let topLevel = -1
  for (const line of logs) {
    const invoke = /^Program (\S+) invoke \[(\d+)\]$/.exec(line)
    if (invoke !== null) {
      if (Number(invoke[2]) <= 1) topLevel++
      stack.splice(Math.max(Number(invoke[2]) - 1, 0))
      stack.push(invoke[1] ?? "")
      continue
    }
    if (/^Program (\S+) failed: /.test(line)) return []
    const success = /^Program (\S+) success$/.exec(line)
    if (success !== null) {
      const frame = stack.lastIndexOf(success[1] ?? "")
      if (frame >= 0) stack.splice(frame)
      continue
    }
    if (line.startsWith("Program data: ") && stack[stack.length - 1] === programId) {
      const index = dataLines++
      const bytes = fromBase64(line.slice("Program data: ".length))
      if (bytes !== undefined) lines.push({ index, topLevel, bytes })
    }
  }
  return lines
}

const line = FastCheck.oneof(
  FastCheck.constantFrom(
    `Program ${PROGRAM} invoke [1]`, `Program ${PROGRAM} invoke [2]`, `Program ${PROGRAM} success`, "Program other invoke [2]",
    "Program other success", "Program data: success", "Program data: invoke [1]", "Program data: failed: x", "Program data: AQID",
    "Program data:  AQID", "Program data: AQID success", "Program data: data: success", "Program data: ", "Program data: QUJD\t"
  ),
  FastCheck.uint8Array({ maxLength: 40 }).map((bytes) => `Program data: ${Buffer.from(bytes).toString("base64")}`),
  FastCheck.string({ maxLength: 12 }).map((text) => `Program data: ${text}`)
)

describe("programDataFromLogs", () => {
  it.prop(
    "reads data lines exactly as trying every pattern on every line does",
    [FastCheck.array(line, { maxLength: 25 })],
    ([logs]) => {
      expect(programDataFromLogs(logs, PROGRAM)).toStrictEqual(reference(logs, PROGRAM))
    },
    { fastCheck: { numRuns: 3000 } }
  )
})

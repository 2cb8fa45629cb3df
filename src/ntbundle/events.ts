import { Either } from "effect"
import { asPlainBytes, fromBase64, toBase64, toHex } from "./bytes.ts"
import { decodeAt, type DecodeError, decodeError } from "./errors.ts"
import { readAt, structReader } from "./fieldReader.ts"
import { EVENT_LAYOUTS, type EventDataByName } from "./generated/events.ts"
import type { Layout } from "./generated/types.ts"

export type * from "./generated/events.ts"

/** IDL PascalCase event name, e.g. `"DepositRequested"`. */
export type EventName = keyof EventDataByName

/** A decoded ntbundle event: its name and its data (the fields after the discriminator). */
export type NtEvent = {
  readonly [K in EventName]: { readonly name: K; readonly data: EventDataByName[K] }
}[EventName]

const DISCRIMINATOR_LENGTH = 8
const DATA_PREFIX = "Program data: "

const eventNames = Object.keys(EVENT_LAYOUTS) as Array<EventName>

export const EVENT_DISCRIMINATORS: { readonly [K in EventName]: Uint8Array } = Object.fromEntries(
  eventNames.map((name) => [name, EVENT_LAYOUTS[name].discriminator])
) as { readonly [K in EventName]: Uint8Array }

/** An 8-byte discriminator as one map key: a latin1 string (cheaper to build than hex). */
const discriminatorKey = (bytes: Uint8Array): string => String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!, bytes[4]!, bytes[5]!, bytes[6]!, bytes[7]!)

const nameByDiscriminator: ReadonlyMap<string, EventName> = new Map(
  eventNames.map((name) => [discriminatorKey(EVENT_LAYOUTS[name].discriminator), name])
)

const readerByName = new Map(eventNames.map((name) => [name, structReader(EVENT_LAYOUTS[name].fields)]))

// `name` and `data` are correlated in NtEvent, which TypeScript cannot follow through an indexed
// access; this is the one place that widens a layout to the union of all event data.
const layoutOf = (name: EventName): Layout<NtEvent["data"]> => EVENT_LAYOUTS[name] as Layout<NtEvent["data"]>

/** Decodes `discriminator + Borsh data` (the bytes of a `Program data:` line). Never throws. */
export const decodeEvent = (bytes: Uint8Array): Either.Either<NtEvent, DecodeError> => {
  const data = asPlainBytes(bytes)
  if (data.length < DISCRIMINATOR_LENGTH) {
    return Either.left(decodeError("TOO_SHORT", `event data has ${data.length} bytes, less than a discriminator`))
  }
  const name = nameByDiscriminator.get(discriminatorKey(data))
  if (name === undefined) {
    const discriminator = toHex(data.subarray(0, DISCRIMINATOR_LENGTH))
    return Either.left(decodeError("UNKNOWN_DISCRIMINATOR", `no ntbundle event has discriminator ${discriminator}`))
  }
  // Well-formed data (all of it, in practice) is read directly; the kit codec tells what is wrong with the rest.
  const read = readAt(readerByName.get(name)!, data, DISCRIMINATOR_LENGTH)
  if (read !== undefined) return Either.right({ name, data: read } as NtEvent)
  return Either.map(
    decodeAt(name, layoutOf(name).codec, data, DISCRIMINATOR_LENGTH),
    (decoded) => ({ name, data: decoded }) as NtEvent
  )
}

/** Discriminator then Borsh data, as the program's `emit!` logs it. Throws on out-of-range values. */
export const encodeEvent = (event: NtEvent): Uint8Array => {
  const layout = layoutOf(event.name)
  const body = layout.codec.encode(event.data)
  const data = new Uint8Array(DISCRIMINATOR_LENGTH + body.length)
  data.set(layout.discriminator, 0)
  data.set(body, DISCRIMINATOR_LENGTH)
  return data
}

/** The log line the program writes for `event`. */
export const eventLogLine = (event: NtEvent): string => DATA_PREFIX + toBase64(encodeEvent(event))

const INVOKE = /^Program (\S+) invoke \[(\d+)\]$/
const SUCCESS = /^Program (\S+) success$/
const FAILED = /^Program (\S+) failed: /
const SUCCESS_DATA_LINE = `${DATA_PREFIX}success`

/**
 * The `Program data:` lines `programId` logged, base64-decoded, from a transaction's log messages.
 *
 * Follows the runtime's log structure: `Program <id> invoke [depth]` opens an invocation,
 * `Program <id> success` / `Program <id> failed: ...` closes it, and a `Program data: <base64>`
 * line belongs to the innermost open invocation. Only lines of `programId`'s own invocations count
 * (not data logged by programs it calls, nor by its callers).
 *
 * `index` is the 0-based position of the line among `programId`'s data lines; a line that is not
 * valid base64 has no bytes and is skipped (its index stays taken). `topLevel` is the 0-based
 * position of the top-level invocation (`invoke [1]`) the line was logged under: every top-level
 * instruction of the message logs one, so it is the index of the emitting top-level instruction. A `failed` line means the
 * runtime aborted the whole transaction and nothing in it took effect, so the result is then empty.
 */
export const programDataFromLogs = (
  logs: ReadonlyArray<string>,
  programId: string
): Array<{ index: number; topLevel: number; bytes: Uint8Array }> => {
  const stack: Array<string> = []
  const lines: Array<{ index: number; topLevel: number; bytes: Uint8Array }> = []
  let dataLines = 0
  let topLevel = -1
  for (const line of logs) {
    // Most lines are data lines: one whose payload has no space and is not "success" matches none of
    // the patterns below, so it is taken at once.
    if (line.startsWith(DATA_PREFIX) && line.indexOf(" ", DATA_PREFIX.length) < 0 && line !== SUCCESS_DATA_LINE) {
      if (stack[stack.length - 1] !== programId) continue
      const index = dataLines++
      const bytes = fromBase64(line.slice(DATA_PREFIX.length))
      if (bytes !== undefined) lines.push({ index, topLevel, bytes })
      continue
    }
    const invoke = INVOKE.exec(line)
    if (invoke !== null) {
      // Depth is 1-based; trusting it keeps the stack right even if a closing line is missing.
      if (Number(invoke[2]) <= 1) topLevel++
      stack.splice(Math.max(Number(invoke[2]) - 1, 0))
      stack.push(invoke[1] ?? "")
      continue
    }
    if (FAILED.test(line)) return []
    const success = SUCCESS.exec(line)
    if (success !== null) {
      const frame = stack.lastIndexOf(success[1] ?? "")
      if (frame >= 0) stack.splice(frame)
      continue
    }
    if (line.startsWith(DATA_PREFIX) && stack[stack.length - 1] === programId) {
      const index = dataLines++
      const bytes = fromBase64(line.slice(DATA_PREFIX.length))
      if (bytes !== undefined) lines.push({ index, topLevel, bytes })
    }
  }
  return lines
}

/**
 * The events `programId` emitted, from a transaction's log messages: its data lines (see
 * `programDataFromLogs`, whose `index` they keep) that decode as ntbundle events; others are skipped.
 */
export const eventsFromLogs = (
  logs: ReadonlyArray<string>,
  programId: string
): Array<{ index: number; event: NtEvent }> => {
  const events: Array<{ index: number; event: NtEvent }> = []
  for (const { index, bytes } of programDataFromLogs(logs, programId)) {
    const decoded = decodeEvent(bytes)
    if (Either.isRight(decoded)) events.push({ index, event: decoded.right })
  }
  return events
}

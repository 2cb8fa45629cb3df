/**
 * The header and static account keys of a wire transaction (legacy or v0), and its compiled
 * top-level instructions, read straight from its bytes. Layout: compact-u16 signature count, the signatures (64 bytes each), then the
 * message: a version byte when the top bit is set (v0), the 3-byte header, compact-u16 key count
 * and the keys (32 bytes each).
 */
export interface MessageKeys {
  readonly header: {
    readonly numRequiredSignatures: number
    readonly numReadonlySignedAccounts: number
    readonly numReadonlyUnsignedAccounts: number
  }
  /** The static account keys, in message order (views into the wire bytes). */
  readonly accountKeys: ReadonlyArray<Uint8Array>
}

const SIGNATURE_BYTES = 64
const KEY_BYTES = 32

/** A compact-u16 (1 to 3 bytes, 7 bits each, least significant first) at `offset`, or null past the end. */
const compactU16 = (bytes: Uint8Array, offset: number): { readonly value: number; readonly next: number } | null => {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i]
    if (byte === undefined) return null
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return { value, next: offset + i + 1 }
  }
  return null
}

interface KeysAt extends MessageKeys {
  /** Offset of the first byte after the static keys (the recent blockhash). */
  readonly end: number
}

const readKeysAt = (wire: Uint8Array): KeysAt | null => {
  const signatures = compactU16(wire, 0)
  if (signatures === null) return null
  let at = signatures.next + signatures.value * SIGNATURE_BYTES
  const first = wire[at]
  if (first === undefined) return null
  if ((first & 0x80) !== 0) {
    if ((first & 0x7f) !== 0) return null
    at += 1
  }
  if (at + 3 > wire.length) return null
  const header = {
    numRequiredSignatures: wire[at]!,
    numReadonlySignedAccounts: wire[at + 1]!,
    numReadonlyUnsignedAccounts: wire[at + 2]!
  }
  const keys = compactU16(wire, at + 3)
  if (keys === null || keys.next + keys.value * KEY_BYTES > wire.length) return null
  const accountKeys: Array<Uint8Array> = []
  for (let i = 0; i < keys.value; i++) {
    const start = keys.next + i * KEY_BYTES
    accountKeys.push(wire.subarray(start, start + KEY_BYTES))
  }
  return { header, accountKeys, end: keys.next + keys.value * KEY_BYTES }
}

/** The message's header and static keys; null when the bytes are not a well-formed transaction prefix. */
export const readMessageKeys = (wire: Uint8Array): MessageKeys | null => {
  const read = readKeysAt(wire)
  return read === null ? null : { header: read.header, accountKeys: read.accountKeys }
}

/**
 * One top-level instruction as the message compiles it: indexes into the message's account list
 * (the static keys, then for v0 the loaded addresses: writable ones, then readonly ones) and its data.
 */
export interface CompiledInstruction {
  readonly programIdIndex: number
  readonly accountIndexes: ReadonlyArray<number>
  /** A view into the wire bytes. */
  readonly data: Uint8Array
}

const BLOCKHASH_BYTES = 32

/**
 * The message's header, static keys and top-level instructions, in message order. After the keys
 * come the recent blockhash (32 bytes), a compact-u16 instruction count and each instruction:
 * program id index (1 byte), compact-u16 account count and one index byte each, compact-u16 data
 * length and the data (v0 address table lookups follow; they are not read). Null when the bytes
 * end early.
 */
export const readMessageInstructions = (
  wire: Uint8Array
): (MessageKeys & { readonly instructions: ReadonlyArray<CompiledInstruction> }) | null => {
  const keys = readKeysAt(wire)
  if (keys === null) return null
  const count = compactU16(wire, keys.end + BLOCKHASH_BYTES)
  if (count === null) return null
  let at = count.next
  const instructions: Array<CompiledInstruction> = []
  for (let i = 0; i < count.value; i++) {
    const programIdIndex = wire[at]
    if (programIdIndex === undefined) return null
    const accounts = compactU16(wire, at + 1)
    if (accounts === null || accounts.next + accounts.value > wire.length) return null
    const accountIndexes = Array.from(wire.subarray(accounts.next, accounts.next + accounts.value))
    const dataLength = compactU16(wire, accounts.next + accounts.value)
    if (dataLength === null || dataLength.next + dataLength.value > wire.length) return null
    instructions.push({ programIdIndex, accountIndexes, data: wire.subarray(dataLength.next, dataLength.next + dataLength.value) })
    at = dataLength.next + dataLength.value
  }
  return { header: keys.header, accountKeys: keys.accountKeys, instructions }
}

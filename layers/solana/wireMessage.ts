/**
 * The header and static account keys of a wire transaction (legacy or v0), read straight from its
 * bytes: all that ingestion needs from a transaction besides its logs, without decoding the
 * instructions. Layout: compact-u16 signature count, the signatures (64 bytes each), then the
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

/** The message's header and static keys; null when the bytes are not a well-formed transaction prefix. */
export const readMessageKeys = (wire: Uint8Array): MessageKeys | null => {
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
  return { header, accountKeys }
}

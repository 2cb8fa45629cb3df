import { addressTextOf } from "../../ntbundle/addressBytes.ts"

/**
 * A direct reader for the transactions the sandbox sees almost always: signatures first, a legacy
 * or v0 message, canonical compact-u16 lengths, nothing left over. It answers `undefined` for
 * anything else (truncated or odd bytes, other versions, a signature count that does not match the
 * header), and the caller then takes kit's decoders, so unusual input gets exactly kit's verdict.
 * Kit's decoders convert every address through BigInt base58; this one was ~40 % of the sandbox's
 * CPU while generating history.
 */
export interface WireInstruction {
  readonly programIndex: number
  readonly accountIndexes: ReadonlyArray<number>
  readonly data: Uint8Array
}

export interface WireLookup {
  readonly writable: number
  readonly readonly: number
}

export interface WireMessage {
  readonly version: "legacy" | 0
  readonly numSignerAccounts: number
  readonly numReadonlySignerAccounts: number
  readonly numReadonlyNonSignerAccounts: number
  readonly staticAccounts: ReadonlyArray<string>
  readonly lifetimeToken: string
  readonly instructions: ReadonlyArray<WireInstruction>
  /** Per address table lookup, how many indexes it loads (the sandbox has no lookup tables). */
  readonly lookups: ReadonlyArray<WireLookup>
}

export interface WireTransaction {
  readonly signatures: ReadonlyArray<Uint8Array>
  readonly messageBytes: Uint8Array
  readonly message: WireMessage
}

const EMPTY = new Uint8Array(0)

/** Thrown inside the reader for anything the fast path does not take; never escapes this module. */
class NotSimple extends Error {}
const notSimple = new NotSimple()

class Reader {
  offset = 0
  constructor(readonly bytes: Uint8Array) {}

  byte(): number {
    if (this.offset >= this.bytes.length) throw notSimple
    return this.bytes[this.offset++]!
  }

  /** A canonical compact-u16 (1 to 3 bytes; a longer form than needed is left to kit). */
  shortU16(): number {
    const first = this.byte()
    if (first < 0x80) return first
    const second = this.byte()
    if (second < 0x80) {
      if (second === 0) throw notSimple
      return (first & 0x7f) | (second << 7)
    }
    const third = this.byte()
    if (third === 0 || third > 3) throw notSimple
    return (first & 0x7f) | ((second & 0x7f) << 7) | (third << 14)
  }

  take(length: number): Uint8Array {
    const end = this.offset + length
    if (end > this.bytes.length) throw notSimple
    const slice = this.bytes.subarray(this.offset, end)
    this.offset = end
    return slice
  }

  address(): string {
    return addressTextOf(this.take(32))
  }

  indexes(): Array<number> {
    const count = this.shortU16()
    const out = new Array<number>(count)
    for (let index = 0; index < count; index++) out[index] = this.byte()
    return out
  }
}

const readMessage = (reader: Reader): WireMessage => {
  let version: "legacy" | 0 = "legacy"
  if ((reader.bytes[reader.offset] ?? 0) & 0x80) {
    if (reader.byte() !== 0x80) throw notSimple // versions other than 0: kit decides
    version = 0
  }
  const numSignerAccounts = reader.byte()
  const numReadonlySignerAccounts = reader.byte()
  const numReadonlyNonSignerAccounts = reader.byte()
  const keyCount = reader.shortU16()
  const staticAccounts = new Array<string>(keyCount)
  for (let index = 0; index < keyCount; index++) staticAccounts[index] = reader.address()
  const lifetimeToken = reader.address()
  const instructionCount = reader.shortU16()
  const instructions = new Array<WireInstruction>(instructionCount)
  for (let index = 0; index < instructionCount; index++) {
    const programIndex = reader.byte()
    const accountIndexes = reader.indexes()
    const dataLength = reader.shortU16()
    const data = dataLength === 0 ? EMPTY : reader.take(dataLength).slice()
    instructions[index] = { programIndex, accountIndexes, data }
  }
  const lookups: Array<WireLookup> = []
  if (version === 0) {
    const lookupCount = reader.shortU16()
    for (let index = 0; index < lookupCount; index++) {
      reader.take(32)
      const writable = reader.indexes().length
      lookups.push({ writable, readonly: reader.indexes().length })
    }
  }
  return {
    version,
    numSignerAccounts,
    numReadonlySignerAccounts,
    numReadonlyNonSignerAccounts,
    staticAccounts,
    lifetimeToken,
    instructions,
    lookups
  }
}

/** A whole message, or undefined when it is not the simple case (trailing bytes included). */
export const readWireMessage = (messageBytes: Uint8Array): WireMessage | undefined => {
  try {
    const reader = new Reader(messageBytes)
    const message = readMessage(reader)
    return reader.offset === messageBytes.length ? message : undefined
  } catch (error) {
    if (error === notSimple) return undefined
    throw error
  }
}

/** Signatures, then the message; undefined when it is not the simple case. */
export const readWireTransaction = (wireBytes: Uint8Array): WireTransaction | undefined => {
  const count = wireBytes[0]
  if (count === undefined || count >= 0x80) return undefined
  const messageStart = 1 + 64 * count
  if (messageStart > wireBytes.length) return undefined
  const messageBytes = wireBytes.slice(messageStart)
  const message = readWireMessage(messageBytes)
  if (message === undefined || message.numSignerAccounts !== count || count > message.staticAccounts.length) return undefined
  const signatures = new Array<Uint8Array>(count)
  for (let index = 0; index < count; index++) signatures[index] = wireBytes.slice(1 + 64 * index, 1 + 64 * (index + 1))
  return { signatures, messageBytes, message }
}

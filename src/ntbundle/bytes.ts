import {
  type Address,
  assertByteArrayHasEnoughBytesForCodec,
  assertIsAddress,
  createCodec,
  type FixedSizeCodec,
  fixCodecSize,
  getBytesCodec,
  getU8Codec,
  type ReadonlyUint8Array,
  transformCodec
} from "@solana/kit"
import { addressBytesOf, addressTextOf } from "./addressBytes.ts"

// Byte-level helpers shared by the ntbundle codecs: hex/base64 text forms, and the two Borsh
// primitives that @solana/kit decodes more leniently than Borsh (and the on-chain program) does.

export const toHex = (bytes: ReadonlyUint8Array | Uint8Array): string => {
  let hex = ""
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0")
  return hex
}

/** Parses lowercase or uppercase hex with an even number of digits; throws on anything else. */
export const fromHex = (hex: string): Uint8Array => {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new RangeError(`not a hex byte string: "${hex.slice(0, 40)}"`)
  }
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  return bytes
}

export const toBase64 = (bytes: ReadonlyUint8Array | Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")

const IS_BASE64_CHAR = new Uint8Array(128)
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") IS_BASE64_CHAR[char.charCodeAt(0)] = 1
const PAD = 61 // "="

/**
 * Whether `text` is whole groups of four base64 characters, the last one ending in "=" or "==" at
 * most (the strict form `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`, by hand:
 * the regex was a visible cost on every logged event). Returns the decoded length, or -1.
 */
const canonicalBase64Length = (text: string): number => {
  const length = text.length
  if (length % 4 !== 0) return -1
  let padding = 0
  if (length > 0 && text.charCodeAt(length - 1) === PAD) padding = text.charCodeAt(length - 2) === PAD ? 2 : 1
  const end = length - padding
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i)
    if (code >= 128 || IS_BASE64_CHAR[code] === 0) return -1
  }
  return (length / 4) * 3 - padding
}

/** Strict standard base64 (padded); `undefined` for anything Node's lenient decoder would guess at. */
export const fromBase64 = (text: string): Uint8Array | undefined => {
  if (canonicalBase64Length(text) < 0) return undefined
  // copied out of Node's pooled Buffer: measured cheaper than Buffer#write into an array of the right size
  return new Uint8Array(Buffer.from(text, "base64"))
}

export const bytesEqual = (a: ReadonlyUint8Array | Uint8Array, b: ReadonlyUint8Array | Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * A plain `Uint8Array` view of the input. Node's `Buffer.slice` does not copy, so decoding straight
 * from a Buffer would hand out byte fields that alias (and compare unequal to) plain arrays.
 */
export const asPlainBytes = (bytes: Uint8Array): Uint8Array =>
  Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes)

/**
 * The u8 tag of a Borsh `bool` or `Option`: only 0 and 1 are valid. Kit's boolean and nullable
 * decoders read any non-1 byte as false/None, which would make re-encoding change the bytes;
 * Borsh (and so the program) rejects such data.
 */
export const borshTagCodec: FixedSizeCodec<number | bigint, number, 1> = transformCodec(
  getU8Codec(),
  (value: number | bigint) => value,
  (tag: number) => {
    if (tag > 1) throw new RangeError(`invalid Borsh bool/Option tag ${tag} (expected 0 or 1)`)
    return tag
  }
)

/** A Borsh `[u8; N]`: exactly `size` bytes. Encoding a value of another length throws instead of padding. */
export const fixedBytesCodec = <TSize extends number>(size: TSize): FixedSizeCodec<Uint8Array, Uint8Array, TSize> =>
  transformCodec(
    fixCodecSize(getBytesCodec(), size),
    (value: Uint8Array) => {
      if (value.length !== size) throw new RangeError(`expected ${size} bytes, got ${value.length}`)
      return value
    },
    (value) => new Uint8Array(value)
  )

/**
 * A Borsh `pubkey` as an `Address`: what kit's `getAddressCodec()` reads and writes (same text,
 * same errors for a bad address or too few bytes), through the shared address memos and the
 * BigInt-free base58 instead of kit's BigInt base58, which dominated decoding events and accounts.
 */
export const addressCodec: FixedSizeCodec<Address, Address, 32> = createCodec({
  fixedSize: 32,
  write: (value: Address, bytes, offset) => {
    const key = addressBytesOf(value)
    if (key === null) {
      assertIsAddress(value) // throws kit's error naming what is wrong with the text
      throw new RangeError(`not a 32-byte address: ${value}`)
    }
    bytes.set(key, offset)
    return offset + 32
  },
  read: (bytes, offset = 0) => {
    assertByteArrayHasEnoughBytesForCodec("address", 32, bytes, offset)
    return [addressTextOf(bytes.subarray(offset, offset + 32) as Uint8Array) as Address, offset + 32]
  }
})

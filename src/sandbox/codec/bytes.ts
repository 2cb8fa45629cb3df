import { addressTextOf } from "../../ntbundle/addressBytes.ts"

/** Little-endian readers and writers over plain Uint8Arrays, bounds-checked by the caller's lengths. */
const view = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

export const readU32 = (bytes: Uint8Array, offset: number): number => view(bytes).getUint32(offset, true)
export const readU64 = (bytes: Uint8Array, offset: number): bigint => view(bytes).getBigUint64(offset, true)
export const writeU32 = (bytes: Uint8Array, offset: number, value: number): void => view(bytes).setUint32(offset, value, true)
export const writeU64 = (bytes: Uint8Array, offset: number, value: bigint): void => view(bytes).setBigUint64(offset, value, true)
export const writeI64 = (bytes: Uint8Array, offset: number, value: bigint): void => view(bytes).setBigInt64(offset, value, true)

export const readAddress = (bytes: Uint8Array, offset: number): string => addressTextOf(bytes.subarray(offset, offset + 32))

export const bytesEqual = (left: Uint8Array, right: Uint8Array): boolean =>
  left.length === right.length && Buffer.from(left.buffer, left.byteOffset, left.length).equals(right)

export const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64")

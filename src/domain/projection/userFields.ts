import { encodeBase58Bytes32 } from "../../ntbundle/base58.ts"

// The UserBundleAccount fields the indexes need, read in place from the raw bytes: decoding the
// whole 440-byte account for every update of a million positions would dominate the apply rate,
// and keeping decoded copies would dominate memory.
const OWNER_OFFSET = 8
const SHARES_OFFSET = 48
const REFERRER_OFFSET = 263

export interface UserIndexFields {
  readonly owner: string
  readonly shares: bigint
  /** The bound builder's wallet, or null when none (the all-zero key). */
  readonly referrer: string | null
}

const readU128 = (data: Uint8Array, offset: number): bigint => {
  const view = new DataView(data.buffer, data.byteOffset + offset, 16)
  return view.getBigUint64(0, true) | (view.getBigUint64(8, true) << 64n)
}

const isZeroKey = (data: Uint8Array, offset: number): boolean => {
  for (let i = offset; i < offset + 32; i++) if (data[i] !== 0) return false
  return true
}

/** Builders are few and bound to many users: one string per builder, looked up by its raw bytes. */
const internedKeys = new Map<string, string>()

const internedAddressAt = (data: Uint8Array, offset: number): string => {
  const raw = Buffer.from(data.buffer, data.byteOffset + offset, 32).toString("latin1")
  let text = internedKeys.get(raw)
  if (text === undefined) {
    text = encodeBase58Bytes32(data.subarray(offset, offset + 32))
    if (internedKeys.size < 100_000) internedKeys.set(raw, text)
  }
  return text
}

export const ownerBytes = (data: Uint8Array): Uint8Array => data.subarray(OWNER_OFFSET, OWNER_OFFSET + 32)

// An update of a position reads its owner twice, from the previous bytes (unindex) and from the new
// ones (index), and the owner hardly ever changes: the last owner read is kept with its raw bytes,
// so the second read compares 32 bytes instead of encoding base58 again.
const lastOwnerBytes = new Uint8Array(32)
let lastOwner: string | null = null

const sameAsLastOwner = (data: Uint8Array): boolean => {
  for (let i = 0; i < 32; i++) if (data[OWNER_OFFSET + i] !== lastOwnerBytes[i]) return false
  return true
}

export const readOwner = (data: Uint8Array): string => {
  if (lastOwner !== null && sameAsLastOwner(data)) return lastOwner
  const bytes = ownerBytes(data)
  const owner = encodeBase58Bytes32(bytes)
  lastOwnerBytes.set(bytes)
  lastOwner = owner
  return owner
}

export const readUserIndexFields = (data: Uint8Array): UserIndexFields => ({
  owner: readOwner(data),
  shares: readU128(data, SHARES_OFFSET),
  referrer: isZeroKey(data, REFERRER_OFFSET) ? null : internedAddressAt(data, REFERRER_OFFSET)
})

export const readShares = (data: Uint8Array): bigint => readU128(data, SHARES_OFFSET)

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

export const readUserIndexFields = (data: Uint8Array): UserIndexFields => ({
  owner: encodeBase58Bytes32(ownerBytes(data)),
  shares: readU128(data, SHARES_OFFSET),
  referrer: isZeroKey(data, REFERRER_OFFSET) ? null : internedAddressAt(data, REFERRER_OFFSET)
})

export const readShares = (data: Uint8Array): bigint => readU128(data, SHARES_OFFSET)

import { encodeBase58Bytes32 } from "../../ntbundle/base58.ts"

// The UserBundleAccount fields a cohort row shows, read in place (offsets: facts §2, UserBundleAccount).
// Decoding the whole 440-byte account through the codec costs about 50 times more, and a page has
// up to 100 rows.
const OWNER = 8
const LAST_DEPOSIT_TIMESTAMP = 40
const SHARES = 48
const PENDING_DEPOSIT = 64
const NET_DEPOSITS = 152
const MIN_LENGTH = NET_DEPOSITS + 16

export interface CohortFields {
  readonly owner: string
  readonly lastDepositTimestamp: bigint
  readonly shares: bigint
  readonly pendingDeposit: bigint
  /** Signed (i128). */
  readonly netDeposits: bigint
}

/** The row's fields, or null when the bytes are too short to be a UserBundleAccount. */
export const readCohortFields = (data: Uint8Array): CohortFields | null => {
  if (data.length < MIN_LENGTH) return null
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const u128 = (offset: number) => view.getBigUint64(offset, true) | (view.getBigUint64(offset + 8, true) << 64n)
  return {
    owner: encodeBase58Bytes32(data.subarray(OWNER, OWNER + 32)),
    lastDepositTimestamp: view.getBigInt64(LAST_DEPOSIT_TIMESTAMP, true),
    shares: u128(SHARES),
    pendingDeposit: view.getBigUint64(PENDING_DEPOSIT, true),
    netDeposits: view.getBigUint64(NET_DEPOSITS, true) | (view.getBigInt64(NET_DEPOSITS + 8, true) << 64n)
  }
}

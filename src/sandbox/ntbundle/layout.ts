import { ACCOUNT_DISCRIMINATORS } from "../../ntbundle/accounts.ts"
import { addressTextOf } from "../../ntbundle/addressBytes.ts"
import { decodeBase58Exact } from "../../ntbundle/base58.ts"

/**
 * In-place views of ntbundle accounts: each field read or written at its byte offset in the real
 * layout (facts §2). The program model runs on these instead of decoding and re-encoding whole
 * accounts with the IDL codecs, which costs ~150 µs per account and would cap the keeper and the
 * firehose far below their targets. `test/sandbox/ntbundle/layout.test.ts` checks every field
 * against the golden-tested codecs of `src/ntbundle`, so the offsets cannot drift from the IDL.
 *
 * Bundle fields after `allocated_receivers` (a Vec) sit 32·N bytes further on; the Bundle view
 * resolves them from N when it is created.
 */
type Kind = "u8" | "bool" | "u32" | "u64" | "i64" | "u128" | "i128" | "pubkey" | "f32"
type ValueOf<K extends Kind> = K extends "bool" ? boolean : K extends "u8" | "u32" | "f32" ? number : K extends "pubkey" ? string : bigint
type FieldTable = Readonly<Record<string, readonly [Kind, number]>>

export type View<F extends FieldTable> = { -readonly [N in keyof F]: ValueOf<F[N][0]> } & { readonly data: Uint8Array }

const U64 = 2n ** 64n
const dataView = (data: Uint8Array): DataView => new DataView(data.buffer, data.byteOffset, data.byteLength)

const readers: { readonly [K in Kind]: (view: DataView, data: Uint8Array, offset: number) => ValueOf<K> } = {
  u8: (view, _data, offset) => view.getUint8(offset),
  bool: (view, _data, offset) => view.getUint8(offset) !== 0,
  u32: (view, _data, offset) => view.getUint32(offset, true),
  f32: (view, _data, offset) => view.getFloat32(offset, true),
  u64: (view, _data, offset) => view.getBigUint64(offset, true),
  i64: (view, _data, offset) => view.getBigInt64(offset, true),
  u128: (view, _data, offset) => view.getBigUint64(offset, true) + view.getBigUint64(offset + 8, true) * U64,
  i128: (view, _data, offset) => view.getBigUint64(offset, true) + view.getBigInt64(offset + 8, true) * U64,
  pubkey: (_view, data, offset) => addressTextOf(data.subarray(offset, offset + 32))
}

const writers: { readonly [K in Kind]: (view: DataView, data: Uint8Array, offset: number, value: ValueOf<K>) => void } = {
  u8: (view, _data, offset, value) => view.setUint8(offset, value),
  bool: (view, _data, offset, value) => view.setUint8(offset, value ? 1 : 0),
  u32: (view, _data, offset, value) => view.setUint32(offset, value, true),
  f32: (view, _data, offset, value) => view.setFloat32(offset, value, true),
  u64: (view, _data, offset, value) => view.setBigUint64(offset, BigInt.asUintN(64, checked(value, 0n, U64 - 1n)), true),
  i64: (view, _data, offset, value) => view.setBigInt64(offset, checked(value, -(2n ** 63n), 2n ** 63n - 1n), true),
  u128: (view, _data, offset, value) => writeWide(view, offset, checked(value, 0n, 2n ** 128n - 1n)),
  i128: (view, _data, offset, value) => writeWide(view, offset, BigInt.asUintN(128, checked(value, -(2n ** 127n), 2n ** 127n - 1n))),
  pubkey: (_view, data, offset, value) => data.set(addressBytes(value), offset)
}

/** Out-of-range values are model bugs (the program would have failed with MathError first). */
const checked = (value: bigint, min: bigint, max: bigint): bigint => {
  if (value < min || value > max) throw new RangeError(`value ${value} out of range`)
  return value
}

const writeWide = (view: DataView, offset: number, value: bigint): void => {
  view.setBigUint64(offset, BigInt.asUintN(64, value), true)
  view.setBigUint64(offset + 8, value >> 64n, true)
}

export const addressBytes = (address: string): Uint8Array => {
  const bytes = decodeBase58Exact(address, 32)
  if (bytes === undefined) throw new RangeError(`not an address: ${address}`)
  return bytes
}

interface ViewState {
  readonly data: Uint8Array
  readonly view: DataView
  /** Added to the offsets of fields stored after a Vec (Bundle only). */
  readonly shift: number
}

const makePrototype = (fields: FieldTable, shiftedFrom: number): object => {
  const prototype = {}
  for (const [name, [kind, offset]] of Object.entries(fields)) {
    const read = readers[kind] as (view: DataView, data: Uint8Array, offset: number) => unknown
    const write = writers[kind] as (view: DataView, data: Uint8Array, offset: number, value: unknown) => void
    const shifted = offset >= shiftedFrom
    Object.defineProperty(prototype, name, {
      get(this: ViewState) {
        return read(this.view, this.data, shifted ? offset + this.shift : offset)
      },
      set(this: ViewState, value: unknown) {
        write(this.view, this.data, shifted ? offset + this.shift : offset, value)
      }
    })
  }
  return prototype
}

const viewFactory = <F extends FieldTable>(fields: F, shiftedFrom = Number.POSITIVE_INFINITY, shiftOf: (data: Uint8Array) => number = () => 0) => {
  // A constructor gives every view one shape from the start (cheaper than Object.create + assign).
  function ViewOf(this: { data: Uint8Array; view: DataView; shift: number }, data: Uint8Array) {
    this.data = data
    this.view = dataView(data)
    this.shift = shiftOf(data)
  }
  ViewOf.prototype = makePrototype(fields, shiftedFrom)
  const Construct = ViewOf as unknown as new (data: Uint8Array) => ViewState
  return (data: Uint8Array): View<F> => new Construct(data) as unknown as View<F>
}

export const USER_BUNDLE_FIELDS = {
  owner: ["pubkey", 8],
  lastDepositTimestamp: ["i64", 40],
  shares: ["u128", 48],
  pendingDeposit: ["u64", 64],
  pendingShares: ["u128", 72],
  estimatedPendingWithdrawalValue: ["u64", 88],
  withdrawalAvailableTimestamp: ["i64", 96],
  lastWithdrawalProcessTimestamp: ["i64", 104],
  lastHighWaterMark: ["u128", 112],
  hwmPerShare: ["u128", 128],
  lastManagementFeeTimestamp: ["i64", 144],
  netDeposits: ["i128", 152],
  totalFeeCharged: ["u64", 168],
  customDepositFeeBps: ["u32", 176],
  customWithdrawalFeeBps: ["u32", 180],
  customPerformanceFeeBps: ["u32", 184],
  customManagementFeeBps: ["u32", 188],
  feeOverrideFlags: ["u8", 192],
  switchActive: ["bool", 222],
  switchTargetBundle: ["pubkey", 223],
  switchCreatedAt: ["i64", 255],
  referrer: ["pubkey", 263]
} as const satisfies FieldTable

export const REFERRER_FIELDS = {
  bundle: ["pubkey", 8],
  referrer: ["pubkey", 40],
  accruedPfeeShares: ["u128", 72],
  accruedMfeeShares: ["u128", 88],
  active: ["bool", 104],
  bump: ["u8", 105],
  customPfeeBps: ["u32", 106],
  customMfeeBps: ["u32", 110],
  rateOverrideFlags: ["u8", 114],
  pendingWithdrawShares: ["u128", 115],
  estimatedPendingWithdrawalValue: ["u64", 131],
  withdrawalAvailableTimestamp: ["i64", 139],
  lastWithdrawalProcessTimestamp: ["i64", 147],
  referredNetDeposits: ["i128", 155]
} as const satisfies FieldTable

export const ORACLE_FIELDS = {
  averageExternalEquity: ["u64", 8],
  lastUpdateTime: ["i64", 16]
} as const satisfies FieldTable

export const TEMP_DATA_FIELDS = {
  cumulativePendingDeposits: ["u64", 8],
  pendingDepositsCounter: ["u64", 16],
  pendingWithdrawalsCounter: ["u64", 24],
  pendingLockedWithdrawalsCounter: ["u64", 32],
  lastTotalSharesMinted: ["u128", 40],
  lastNettingTimestamp: ["i64", 56],
  isNettingDone: ["bool", 64],
  pausedDepositsWithdrawals: ["bool", 74],
  allocatedShares: ["u128", 83]
} as const satisfies FieldTable

/** Offsets with N = 0 receivers; fields from `bundleUnderlyingBalance` on move by 32·N. */
export const BUNDLE_FIELDS = {
  manager: ["pubkey", 40],
  keeper: ["pubkey", 72],
  treasuryAccount: ["pubkey", 104],
  receiverCount: ["u32", 136],
  bundleUnderlyingBalance: ["u64", 140],
  maxDepositAmount: ["u64", 148],
  withdrawalDelay: ["u64", 156],
  performanceFee: ["u32", 164],
  managementFeeBps: ["u32", 168],
  depositFee: ["u32", 172],
  withdrawalFee: ["u32", 176],
  managerPfeeShares: ["u128", 180],
  oracleBuffer: ["u64", 200],
  totalShares: ["u128", 208],
  assetPrecision: ["u64", 224],
  assetAddress: ["pubkey", 232],
  assetDecimals: ["u8", 264],
  withdrawalTMin: ["i64", 265],
  withdrawalTMax: ["i64", 273],
  withdrawalCurve: ["f32", 281],
  permissionned: ["bool", 285],
  managerMfeeShares: ["u128", 286],
  minDepositAmount: ["u64", 302],
  oracleUpdateTimeLimit: ["i64", 310],
  oracleMaxAge: ["i64", 318],
  withdrawalRedemptionRequestCutoffTs: ["i64", 326],
  withdrawalRedemptionUnlockCurrentCycleTs: ["i64", 334],
  withdrawalRedemptionUnlockNextCycleTs: ["i64", 342],
  referrerEnabled: ["bool", 350],
  referrerMinDepositAmount: ["u64", 351],
  tierCount: ["u8", 439]
} as const satisfies FieldTable

const BUNDLE_SHIFTED_FROM = 140
const REFERRAL_TIERS_OFFSET = 359
const REFERRAL_TIER_SIZE = 16
export const MAX_TIERS = 5

export type UserBundleView = View<typeof USER_BUNDLE_FIELDS>
export type ReferrerView = View<typeof REFERRER_FIELDS>
export type OracleView = View<typeof ORACLE_FIELDS>
export type TempDataView = View<typeof TEMP_DATA_FIELDS>
export type BundleView = View<typeof BUNDLE_FIELDS>

export const userBundleView = viewFactory(USER_BUNDLE_FIELDS)
export const referrerView = viewFactory(REFERRER_FIELDS)
export const oracleView = viewFactory(ORACLE_FIELDS)
export const tempDataView = viewFactory(TEMP_DATA_FIELDS)
export const bundleView = viewFactory(BUNDLE_FIELDS, BUNDLE_SHIFTED_FROM, (data) => 32 * dataView(data).getUint32(136, true))

export interface TierEntry {
  readonly threshold: bigint
  readonly pfeeBps: number
  readonly mfeeBps: number
}

const tierOffset = (bundle: BundleView, index: number): number =>
  REFERRAL_TIERS_OFFSET + 32 * bundle.receiverCount + index * REFERRAL_TIER_SIZE

/** The five tier slots of a Bundle (use `tierCount` to know how many are configured). */
export const readTiers = (bundle: BundleView): Array<TierEntry> => {
  const view = dataView(bundle.data)
  return Array.from({ length: MAX_TIERS }, (_, index) => {
    const offset = tierOffset(bundle, index)
    return { threshold: view.getBigUint64(offset, true), pfeeBps: view.getUint32(offset + 8, true), mfeeBps: view.getUint32(offset + 12, true) }
  })
}

/** Writes the configured tiers and zeroes the unused slots. */
export const writeTiers = (bundle: BundleView, tiers: ReadonlyArray<TierEntry>): void => {
  const view = dataView(bundle.data)
  for (let index = 0; index < MAX_TIERS; index++) {
    const tier = tiers[index] ?? { threshold: 0n, pfeeBps: 0, mfeeBps: 0 }
    const offset = tierOffset(bundle, index)
    view.setBigUint64(offset, tier.threshold, true)
    view.setUint32(offset + 8, tier.pfeeBps, true)
    view.setUint32(offset + 12, tier.mfeeBps, true)
  }
  bundle.tierCount = Math.min(tiers.length, MAX_TIERS)
}

/** The all-zero key is how the program stores "no referrer". */
export const isZeroKeyAt = (data: Uint8Array, offset: number): boolean => {
  for (let index = offset; index < offset + 32; index++) if (data[index] !== 0) return false
  return true
}

export const USER_REFERRER_OFFSET = USER_BUNDLE_FIELDS.referrer[1]

export const hasDiscriminator = (data: Uint8Array, discriminator: Uint8Array): boolean => {
  if (data.length < 8) return false
  for (let index = 0; index < 8; index++) if (data[index] !== discriminator[index]) return false
  return true
}

export const DISCRIMINATOR = {
  Bundle: ACCOUNT_DISCRIMINATORS.Bundle,
  UserBundleAccount: ACCOUNT_DISCRIMINATORS.UserBundleAccount,
  ReferrerAccount: ACCOUNT_DISCRIMINATORS.ReferrerAccount,
  OracleData: ACCOUNT_DISCRIMINATORS.OracleData,
  BundleTempData: ACCOUNT_DISCRIMINATORS.BundleTempData
} as const

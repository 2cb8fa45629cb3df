import { Either } from "effect"
import { encodeBase58Bytes32 } from "../ntbundle/base58.ts"
import { toHex } from "../ntbundle/bytes.ts"

/** The Pyth Solana receiver program: owner of every PriceUpdateV2 account (same id on every SVM cluster). */
export const PYTH_RECEIVER_PROGRAM_ID = "rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ"

/** Anchor's account discriminator: sha256("account:PriceUpdateV2")[0..8]. */
export const PRICE_UPDATE_V2_DISCRIMINATOR = Uint8Array.of(34, 241, 35, 99, 157, 126, 244, 205)

/**
 * The receiver allocates 134 bytes: discriminator 8, write_authority 32, verification_level 2 at
 * most, price_message 84, posted_slot 8. Borsh writes `Full` in one byte, so a fully verified
 * update ends one byte early and leaves a zero byte of padding.
 */
export const PRICE_UPDATE_V2_SIZE = 134
const PRICE_MESSAGE_SIZE = 32 + 8 + 8 + 4 + 8 + 8 + 8 + 8

export type VerificationLevel =
  | { readonly _tag: "Partial"; readonly numSignatures: number }
  | { readonly _tag: "Full" }

export interface PriceUpdateV2 {
  readonly writeAuthority: string
  readonly verificationLevel: VerificationLevel
  /** The Pyth feed id, 64 lowercase hex digits without 0x. */
  readonly feedId: string
  /** The price is `price × 10^exponent`, ± `conf × 10^exponent`. */
  readonly price: bigint
  readonly conf: bigint
  readonly exponent: number
  /** Unix seconds. */
  readonly publishTime: number
  readonly prevPublishTime: number
  readonly emaPrice: bigint
  readonly emaConf: bigint
  /** The Solana slot the update was posted in. */
  readonly postedSlot: bigint
}

export interface PriceDecodeError {
  readonly _tag: "PriceDecodeError"
  readonly message: string
}

const failure = (message: string): Either.Either<never, PriceDecodeError> => Either.left({ _tag: "PriceDecodeError", message })

/** Decodes a PriceUpdateV2 account's data. Never throws: malformed data is a Left saying why. */
export const decodePriceUpdateV2 = (data: Uint8Array): Either.Either<PriceUpdateV2, PriceDecodeError> => {
  if (data.length < 8) return failure(`account data has ${data.length} bytes, less than a discriminator`)
  for (let i = 0; i < 8; i++) {
    if (data[i] !== PRICE_UPDATE_V2_DISCRIMINATOR[i]) return failure(`not a PriceUpdateV2 account (discriminator ${toHex(data.subarray(0, 8))})`)
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  let offset = 8
  const writeAuthority = encodeBase58Bytes32(data.subarray(offset, offset + 32))
  offset += 32
  if (data.length < offset + 1) return failure("account data ends before the verification level")
  let verificationLevel: VerificationLevel
  const variant = data[offset]!
  if (variant === 0) {
    if (data.length < offset + 2) return failure("account data ends inside the verification level")
    verificationLevel = { _tag: "Partial", numSignatures: data[offset + 1]! }
    offset += 2
  } else if (variant === 1) {
    verificationLevel = { _tag: "Full" }
    offset += 1
  } else {
    return failure(`unknown verification level variant ${variant}`)
  }
  if (data.length < offset + PRICE_MESSAGE_SIZE + 8) {
    return failure(`PriceUpdateV2 needs ${offset + PRICE_MESSAGE_SIZE + 8} bytes, got ${data.length}`)
  }
  const feedId = toHex(data.subarray(offset, offset + 32))
  offset += 32
  const price = view.getBigInt64(offset, true)
  const conf = view.getBigUint64(offset + 8, true)
  const exponent = view.getInt32(offset + 16, true)
  const publishTime = view.getBigInt64(offset + 20, true)
  const prevPublishTime = view.getBigInt64(offset + 28, true)
  const emaPrice = view.getBigInt64(offset + 36, true)
  const emaConf = view.getBigUint64(offset + 44, true)
  const postedSlot = view.getBigUint64(offset + 52, true)
  if (!Number.isSafeInteger(Number(publishTime)) || !Number.isSafeInteger(Number(prevPublishTime))) {
    return failure("publish time out of range")
  }
  return Either.right({
    writeAuthority,
    verificationLevel,
    feedId,
    price,
    conf,
    exponent,
    publishTime: Number(publishTime),
    prevPublishTime: Number(prevPublishTime),
    emaPrice,
    emaConf,
    postedSlot
  })
}

/**
 * `price × 10^exponent` as a float. Written as decimal text and parsed once, so the result is the
 * float nearest the exact value (multiplying by a power of ten would round twice).
 */
export const priceAsNumber = (price: bigint, exponent: number): number => Number(`${price}e${exponent}`)

import {
  type Decoder,
  isSolanaError,
  SOLANA_ERROR__CODECS__CANNOT_DECODE_EMPTY_BYTE_ARRAY,
  SOLANA_ERROR__CODECS__INVALID_BYTE_LENGTH
} from "@solana/kit"
import { Data, Either } from "effect"

/**
 * Why bytes could not be decoded:
 * - `TOO_SHORT`: the data ends before the layout does (or a fixed-size account is below its size);
 * - `UNKNOWN_DISCRIMINATOR`: the first 8 bytes are not a discriminator the decoder accepts
 *   (for a type-specific decoder such as `decodeBundle`: not that type's discriminator);
 * - `INVALID_DATA`: a value Borsh rejects, e.g. a bool or Option tag other than 0 or 1.
 */
export type DecodeErrorReason = "TOO_SHORT" | "UNKNOWN_DISCRIMINATOR" | "INVALID_DATA"

export class DecodeError extends Data.TaggedError("DecodeError")<{
  readonly reason: DecodeErrorReason
  readonly message: string
}> {}

export const decodeError = (reason: DecodeErrorReason, message: string): DecodeError =>
  new DecodeError({ reason, message })

const isTruncation = (error: unknown): boolean =>
  isSolanaError(error, SOLANA_ERROR__CODECS__INVALID_BYTE_LENGTH) ||
  isSolanaError(error, SOLANA_ERROR__CODECS__CANNOT_DECODE_EMPTY_BYTE_ARRAY)

/** Runs a kit decoder at `offset`, turning anything it throws into a `DecodeError`. */
export const decodeAt = <T>(
  what: string,
  decoder: Decoder<T>,
  bytes: Uint8Array,
  offset: number
): Either.Either<T, DecodeError> => {
  try {
    return Either.right(decoder.read(bytes, offset)[0])
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    return isTruncation(error)
      ? Either.left(decodeError("TOO_SHORT", `${what}: data ends early (${bytes.length} bytes): ${detail}`))
      : Either.left(decodeError("INVALID_DATA", `${what}: ${detail}`))
  }
}

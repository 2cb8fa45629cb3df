import { getAddressEncoder, isAddress } from "@solana/kit"
import { parseSignInMessage, verifySignIn } from "@solana/wallet-standard-util"
import { Either } from "effect"

/**
 * Sign-In With Solana (Wallet Standard `solana:signIn`, modelled on EIP-4361). The server hands out
 * a `SignInInput`; the wallet signs the message `createSignInMessage` makes of it (with `signIn`, or
 * with `signMessage` for wallets without it); `checkSignIn` compares the signed message with what
 * was issued, field by field, then verifies the ed25519 signature over the exact bytes. Parsing and
 * message construction are `@solana/wallet-standard-util`'s, the library wallets use.
 */

/** The sign-in input the server issues (the `SolanaSignInInput` fields it sets). */
export interface SignInInput {
  readonly domain: string
  readonly uri: string
  readonly version: string
  readonly chainId: string
  readonly statement: string
  readonly nonce: string
  readonly issuedAt: string
  readonly expirationTime: string
}

/** The wallet's `SolanaSignInOutput`, its byte fields decoded. */
export interface SignInOutput {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly signedMessage: Uint8Array
  readonly signature: Uint8Array
}

export type SignInRefusalReason = "malformed" | "mismatch" | "time" | "signature"

export interface SignInRefusal {
  readonly reason: SignInRefusalReason
  readonly message: string
}

/** How long an issued input may be signed and sent back. */
export const SIGN_IN_VALIDITY_MS = 10 * 60_000
/** Largest clock difference accepted between `issuedAt` and the server's time. */
export const ISSUED_AT_SKEW_MS = 10 * 60_000
/** Largest signed message accepted, in bytes (an issued message is well under 1 KB). */
export const MAX_SIGNED_MESSAGE_BYTES = 2048

export interface SignInSettings {
  /** The configured public origin, e.g. `https://gateway.example`. */
  readonly origin: URL
  /** `solana:mainnet`, `solana:devnet`. */
  readonly chainId: string
}

export const SIGN_IN_STATEMENT = "Sign in to vault-gateway to manage your organization, builder codes and API keys."

export const ownerTransferStatement = (organizationId: string, from: string) =>
  `Accept ownership of vault-gateway organization ${organizationId} from ${from}.`

export const makeSignInInput = (settings: SignInSettings, nonce: string, statement: string, now: Date): SignInInput => ({
  domain: settings.origin.host,
  uri: settings.origin.origin,
  version: "1",
  chainId: settings.chainId,
  statement,
  nonce,
  issuedAt: now.toISOString(),
  expirationTime: new Date(now.getTime() + SIGN_IN_VALIDITY_MS).toISOString()
})

const FIELDS = ["domain", "uri", "version", "chainId", "statement", "nonce", "issuedAt", "expirationTime"] as const

const refuse = (reason: SignInRefusalReason, message: string) => Either.left<SignInRefusal>({ reason, message })

/** The nonce the signed message names (to find what was issued), or a refusal when unreadable. */
export const signedNonce = (signedMessage: Uint8Array): Either.Either<string, SignInRefusal> => {
  if (signedMessage.length > MAX_SIGNED_MESSAGE_BYTES) {
    return refuse("malformed", `the signed message is over ${MAX_SIGNED_MESSAGE_BYTES} bytes`)
  }
  const parsed = parseSignInMessage(signedMessage)
  if (parsed === null) return refuse("malformed", "the signed message is not a Sign-In With Solana message")
  if (parsed.nonce === undefined) return refuse("malformed", "the signed message has no Nonce")
  return Either.right(parsed.nonce)
}

const timeOf = (text: string) => {
  const time = Date.parse(text)
  return Number.isNaN(time) ? undefined : time
}

/**
 * Checks a wallet's output against the input issued for its nonce (already known to be unused and
 * unexpired in the store) and the input the client sent back: every field, the times against
 * `now`, the account, then the signature. Right: the signing wallet's address.
 */
export const checkSignIn = (
  issued: SignInInput,
  sent: Partial<Record<(typeof FIELDS)[number], string | undefined>>,
  output: SignInOutput,
  now: number
): Either.Either<string, SignInRefusal> => {
  if (output.signedMessage.length > MAX_SIGNED_MESSAGE_BYTES) {
    return refuse("malformed", `the signed message is over ${MAX_SIGNED_MESSAGE_BYTES} bytes`)
  }
  const parsed = parseSignInMessage(output.signedMessage)
  if (parsed === null) return refuse("malformed", "the signed message is not a Sign-In With Solana message")
  for (const field of FIELDS) {
    if (parsed[field] === undefined) return refuse("malformed", `the signed message has no ${field}`)
  }
  for (const field of FIELDS) {
    if (parsed[field] !== issued[field]) return refuse("mismatch", `the signed ${field} is not the one issued`)
    const echoed = sent[field]
    if (echoed !== undefined && echoed !== issued[field]) return refuse("mismatch", `input.${field} is not the one issued`)
  }
  if (parsed.requestId !== undefined || parsed.resources !== undefined) {
    return refuse("mismatch", "the signed message has fields that were not issued (Request ID, Resources)")
  }
  const issuedAt = timeOf(parsed.issuedAt!)
  const expiresAt = timeOf(parsed.expirationTime!)
  if (issuedAt === undefined || expiresAt === undefined) return refuse("malformed", "issuedAt or expirationTime is not a date")
  if (Math.abs(now - issuedAt) > ISSUED_AT_SKEW_MS) return refuse("time", "issuedAt is more than 10 minutes from the server's time")
  if (now >= expiresAt) return refuse("time", "the sign-in input has expired (expirationTime)")
  if (parsed.notBefore !== undefined) {
    const notBefore = timeOf(parsed.notBefore)
    if (notBefore === undefined) return refuse("malformed", "notBefore is not a date")
    if (now < notBefore) return refuse("time", "the sign-in is not valid yet (notBefore)")
  }
  if (!isAddress(output.address)) return refuse("malformed", "account.address is not a base58 Solana address")
  if (parsed.address !== output.address) return refuse("mismatch", "the signed message names another account than account.address")
  const addressBytes = getAddressEncoder().encode(output.address)
  if (output.publicKey.length !== 32 || !addressBytes.every((byte, i) => byte === output.publicKey[i])) {
    return refuse("signature", "account.publicKey is not the key of account.address")
  }
  if (output.signature.length !== 64) return refuse("signature", "the signature is not 64 bytes")
  const expected = {
    ...issued,
    address: output.address,
    ...(parsed.notBefore === undefined ? {} : { notBefore: parsed.notBefore })
  }
  let verified = false
  try {
    verified = verifySignIn(expected, {
      account: { address: output.address, publicKey: output.publicKey, chains: [], features: [] },
      signedMessage: output.signedMessage,
      signature: output.signature
    })
  } catch {
    // a public key off the curve or a non-canonical signature: not a valid signature
  }
  return verified ? Either.right(output.address) : refuse("signature", "the signature does not verify over the signed message")
}

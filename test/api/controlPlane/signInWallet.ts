import { generateKeyPairSync, type KeyObject, sign } from "node:crypto"
import { getAddressDecoder } from "@solana/kit"
import { createSignInMessage } from "@solana/wallet-standard-util"

/** A wallet for tests: a real ed25519 key pair (node:crypto) and its base58 address. */
export interface TestWallet {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly sign: (message: Uint8Array) => Uint8Array
}

export const newWallet = (): TestWallet => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519")
  const raw = Buffer.from(publicKey.export({ format: "jwk" }).x!, "base64url")
  const key: KeyObject = privateKey
  return { address: getAddressDecoder().decode(raw), publicKey: raw, sign: (message) => sign(null, message, key) }
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

export type Input = Record<string, string>

/**
 * What a wallet's `solana:signIn` answers for `input` (the message made by
 * `@solana/wallet-standard-util`, signed with the wallet's key), as the verify body: bytes in base64.
 * `signed` overrides fields of the message only (the echoed input stays as issued); `tamper` edits
 * the signed bytes after signing; `signer` signs instead of the wallet.
 */
export const signInProof = (
  wallet: TestWallet,
  input: Input,
  options: {
    readonly signed?: Partial<Input>
    readonly omit?: ReadonlyArray<string>
    readonly tamper?: (message: Uint8Array) => Uint8Array
    readonly signer?: TestWallet
    readonly tamperSignature?: (signature: Uint8Array) => Uint8Array
  } = {}
) => {
  const fields: Record<string, string> = { ...input, ...options.signed, address: wallet.address }
  for (const name of options.omit ?? []) delete fields[name]
  const message = createSignInMessage(fields as unknown as Parameters<typeof createSignInMessage>[0])
  const signature = (options.signer ?? wallet).sign(message)
  const sent = options.tamper === undefined ? message : options.tamper(Uint8Array.from(message))
  return {
    input,
    output: {
      account: { address: wallet.address, publicKey: b64(wallet.publicKey) },
      signedMessage: b64(sent),
      signature: b64(options.tamperSignature === undefined ? signature : options.tamperSignature(Uint8Array.from(signature)))
    }
  }
}

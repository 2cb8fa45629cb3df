import { getWallets } from "@wallet-standard/app"
import type { Wallet, WalletAccount } from "@wallet-standard/base"
import { createSignInMessage } from "@solana/wallet-standard-util"
import type { components } from "../../client/openapi.ts"
import { api, ok } from "../common/api.ts"

type SignInInput = components["schemas"]["SignInInput"]

// The features this page uses, typed here (the Wallet Standard names them by string).
interface SignInFeature {
  readonly signIn: (...inputs: ReadonlyArray<SignInInput>) => Promise<ReadonlyArray<{ account: WalletAccount; signedMessage: Uint8Array; signature: Uint8Array }>>
}
interface SignMessageFeature {
  readonly signMessage: (...inputs: ReadonlyArray<{ account: WalletAccount; message: Uint8Array }>) => Promise<ReadonlyArray<{ signedMessage: Uint8Array; signature: Uint8Array }>>
}
interface ConnectFeature {
  readonly connect: () => Promise<{ readonly accounts: ReadonlyArray<WalletAccount> }>
}

const feature = <T>(wallet: Wallet, name: string): T | undefined => (wallet.features as Record<string, unknown>)[name] as T | undefined

/** A Solana wallet that can sign in: with `solana:signIn`, or `standard:connect` + `solana:signMessage`. */
export const canSignIn = (wallet: Wallet): boolean =>
  wallet.chains.some((chain) => chain.startsWith("solana:")) &&
  (feature(wallet, "solana:signIn") !== undefined || (feature(wallet, "standard:connect") !== undefined && feature(wallet, "solana:signMessage") !== undefined))

/** The wallets registered through the Wallet Standard now and later (`onChange` on each registration). */
export const watchWallets = (onChange: (wallets: ReadonlyArray<Wallet>) => void): void => {
  const registry = getWallets()
  const report = () => onChange(registry.get().filter(canSignIn))
  registry.on("register", report)
  registry.on("unregister", report)
  report()
}

const base64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * Sign-In With Solana against the gateway: a fresh input from `/v2/auth/nonce`, signed by the wallet
 * (`solana:signIn`, or the same message text with `solana:signMessage`), verified by `/v2/auth/verify`,
 * which sets the session cookie.
 */
export const signInWith = async (wallet: Wallet): Promise<void> => {
  const { data: input } = await ok(api.POST("/v2/auth/nonce"))
  let output: { account: WalletAccount; signedMessage: Uint8Array; signature: Uint8Array }
  const signIn = feature<SignInFeature>(wallet, "solana:signIn")
  if (signIn !== undefined) {
    const [signed] = await signIn.signIn(input)
    if (signed === undefined) throw new Error(`${wallet.name} returned no signature`)
    output = signed
  } else {
    const { accounts } = await feature<ConnectFeature>(wallet, "standard:connect")!.connect()
    const account = accounts[0]
    if (account === undefined) throw new Error(`${wallet.name} shared no account`)
    const message = createSignInMessage({ ...input, address: account.address })
    const [signed] = await feature<SignMessageFeature>(wallet, "solana:signMessage")!.signMessage({ account, message })
    if (signed === undefined) throw new Error(`${wallet.name} returned no signature`)
    output = { account, ...signed }
  }
  await ok(
    api.POST("/v2/auth/verify", {
      body: {
        input,
        output: {
          account: { address: output.account.address, publicKey: base64(new Uint8Array(output.account.publicKey)) },
          signedMessage: base64(output.signedMessage),
          signature: base64(output.signature)
        }
      }
    })
  )
}

/**
 * Browser code, bundled by the browser test and injected into the page before its own scripts: two
 * Wallet Standard wallets over one ed25519 key held by the test process (`__testWalletSign`, exposed
 * with Playwright): "Test Wallet" signs in with `solana:signIn`, "Plain Test Wallet" has only
 * `standard:connect` and `solana:signMessage` (the dashboard's fallback).
 */
import { registerWallet } from "@wallet-standard/wallet"
import type { Wallet, WalletAccount } from "@wallet-standard/base"
import { createSignInMessage } from "@solana/wallet-standard-util"

interface Page {
  readonly __testWalletConfig: { readonly address: string; readonly publicKey: string }
  readonly __testWalletSign: (messageBase64: string) => Promise<string>
}
const page = globalThis as unknown as Page

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
const sign = async (message: Uint8Array) => fromBase64(await page.__testWalletSign(toBase64(message)))

const CHAINS = ["solana:mainnet", "solana:devnet"] as const
const ICON = `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#7c3aed"/><path d="M8 16h16M16 8v16" stroke="#fff" stroke-width="4"/></svg>`)}` as const

const makeWallet = (name: string, withSignIn: boolean): Wallet => {
  const account: WalletAccount = {
    address: page.__testWalletConfig.address,
    publicKey: fromBase64(page.__testWalletConfig.publicKey),
    chains: CHAINS,
    features: withSignIn ? ["solana:signIn", "solana:signMessage"] : ["solana:signMessage"]
  }
  let accounts: ReadonlyArray<WalletAccount> = []
  const features: Record<string, unknown> = {
    "standard:connect": {
      version: "1.0.0",
      connect: async () => {
        accounts = [account]
        return { accounts }
      }
    },
    "standard:events": { version: "1.0.0", on: () => () => {} },
    "solana:signMessage": {
      version: "1.0.0",
      signMessage: async (...inputs: ReadonlyArray<{ message: Uint8Array }>) =>
        Promise.all(inputs.map(async ({ message }) => ({ signedMessage: message, signature: await sign(message), signatureType: "ed25519" })))
    }
  }
  if (withSignIn) {
    features["solana:signIn"] = {
      version: "1.0.0",
      signIn: async (...inputs: ReadonlyArray<Record<string, string>>) =>
        Promise.all(inputs.map(async (input) => {
          accounts = [account]
          const message = createSignInMessage({ ...input, domain: input.domain ?? (globalThis as unknown as { location: { host: string } }).location.host, address: account.address })
          return { account, signedMessage: message, signature: await sign(message), signatureType: "ed25519" }
        }))
    }
  }
  return {
    version: "1.0.0",
    name,
    icon: ICON,
    chains: CHAINS,
    features: features as Wallet["features"],
    get accounts() {
      return accounts
    }
  }
}

registerWallet(makeWallet("Test Wallet", true))
registerWallet(makeWallet("Plain Test Wallet", false))

// Content-Security-Policy refusals seen by the page, for the test to read.
const violations: Array<string> = []
;(globalThis as unknown as { __cspViolations: Array<string> }).__cspViolations = violations
const events = globalThis as unknown as { addEventListener: (name: string, listener: (event: unknown) => void) => void }
events.addEventListener("securitypolicyviolation", (event) => {
  const violation = event as { violatedDirective: string; blockedURI: string }
  violations.push(`${violation.violatedDirective} ${violation.blockedURI}`)
})

import {
  createKeyPairFromBytes,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  signTransaction
} from "@solana/kit"
import { sandboxCall } from "../../support/ingestHarness.ts"

export interface SandboxWallet {
  readonly address: string
  readonly role: string
  readonly secretKey: string
}

export const sandboxWallets = async (rpcUrl: string) => (await sandboxCall(rpcUrl, "sandbox_wallets")) as Array<SandboxWallet>

/**
 * What a browser wallet does with a builder's answer: decode the unsigned transaction, sign it with
 * the user's key (the only signer), and send it. Returns the signature, or throws the node's error.
 */
export const signAndSend = async (rpcUrl: string, wallet: SandboxWallet, transactionBase64: string): Promise<string> => {
  const keys = await createKeyPairFromBytes(new Uint8Array(getBase58Encoder().encode(wallet.secretKey)))
  const unsigned = getTransactionDecoder().decode(Buffer.from(transactionBase64, "base64"))
  const signed = await signTransaction([keys], unsigned as Parameters<typeof signTransaction>[1])
  return (await sandboxCall(rpcUrl, "sendTransaction", [getBase64EncodedWireTransaction(signed), { encoding: "base64" }])) as string
}

import { secretKeyToBase58, type Keypair } from "./crypto/keypair.ts"

/** Wallets that scenarios create and hand out through sandbox_wallets so tests can sign as them. */
export type WalletRole = "user" | "builder" | "manager" | "keeper"

export interface Wallet {
  readonly keypair: Keypair
  readonly role: WalletRole
}

export class WalletRegistry {
  private readonly wallets = new Map<string, Wallet>()

  add(keypair: Keypair, role: WalletRole): Wallet {
    const wallet = { keypair, role }
    this.wallets.set(keypair.address, wallet)
    return wallet
  }

  get(address: string): Wallet | undefined {
    return this.wallets.get(address)
  }

  byRole(role: WalletRole): ReadonlyArray<Wallet> {
    return Array.from(this.wallets.values()).filter((wallet) => wallet.role === role)
  }

  /** sandbox_wallets: `secretKey` is base58 of the 64-byte keypair (seed, then public key). */
  toJson(): Array<{ readonly address: string; readonly role: WalletRole; readonly secretKey: string }> {
    return Array.from(this.wallets.values(), ({ keypair, role }) => ({ address: keypair.address, role, secretKey: secretKeyToBase58(keypair) }))
  }
}

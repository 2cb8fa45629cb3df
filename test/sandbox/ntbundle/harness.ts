import type { Address, Instruction as KitInstruction } from "@solana/kit"
import { Either } from "effect"
import { decodeBundle, decodeBundleTempData, decodeOracleData, decodeReferrerAccount, decodeUserBundleAccount } from "../../../src/ntbundle/accounts.ts"
import { eventsFromLogs, type NtEvent } from "../../../src/ntbundle/events.ts"
import { findReferrerPda, findUserBundlePda } from "../../../src/ntbundle/pdas.ts"
import type { SandboxChain } from "../../../src/sandbox/chain.ts"
import { deterministicKeypair, type Keypair } from "../../../src/sandbox/crypto/keypair.ts"
import { createNtbundleProgram } from "../../../src/sandbox/ntbundle/program.ts"
import { vaultAddresses } from "../../../src/sandbox/ntbundle/support.ts"
import { associatedTokenAddress } from "../../../src/sandbox/programs/instructions.ts"
import { decodeTokenAccount } from "../../../src/sandbox/programs/tokenLayout.ts"
import type { Instruction } from "../../../src/sandbox/runtime/program.ts"
import type { SendOutcome } from "../../../src/sandbox/runtime/processor.ts"
import { createSandboxChain } from "../../../src/sandbox/sandbox.ts"
import { fromKitInstruction } from "../../../src/sandbox/ntbundle/kitInstruction.ts"
import { TokenGenesis } from "../../../src/sandbox/scenario/tokenGenesis.ts"
import { vaultAccounts, type VaultConfig } from "../../../src/sandbox/scenario/vaultGenesis.ts"

/** One vault on a fresh manual-clock chain, with funded wallets and typed reads, for instruction tests. */
export const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
export const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"
export const USDC = 1_000_000n
export const LADDER = [
  { threshold: 10_000n * USDC, pfeeBps: 0, mfeeBps: 1000 },
  { threshold: 500_000n * USDC, pfeeBps: 0, mfeeBps: 2000 },
  { threshold: 3_000_000n * USDC, pfeeBps: 0, mfeeBps: 3000 },
  { threshold: 5_000_000n * USDC, pfeeBps: 0, mfeeBps: 4000 },
  { threshold: 10_000_000n * USDC, pfeeBps: 0, mfeeBps: 5000 }
]

export interface Harness {
  readonly chain: SandboxChain
  readonly programId: Address
  readonly vault: Address
  readonly mint: Address
  readonly keeper: Keypair
  readonly manager: Keypair
  readonly wallet: (label: string) => Keypair
  readonly send: (payer: Keypair, instructions: ReadonlyArray<KitInstruction | Instruction>, signers?: ReadonlyArray<Keypair>) => SendOutcome
  readonly events: (outcome: SendOutcome) => Array<NtEvent>
  readonly userIn: (owner: string, vault: string) => ReturnType<typeof decodeUserBundleAccount> extends Either.Either<infer R, unknown> ? R | null : never
  readonly user: (owner: string) => ReturnType<typeof decodeUserBundleAccount> extends Either.Either<infer R, unknown> ? R | null : never
  readonly referrer: (wallet: string) => ReturnType<typeof decodeReferrerAccount> extends Either.Either<infer R, unknown> ? R | null : never
  readonly bundle: () => ReturnType<typeof decodeBundle> extends Either.Either<infer R, unknown> ? R : never
  readonly oracle: () => ReturnType<typeof decodeOracleData> extends Either.Either<infer R, unknown> ? R : never
  readonly temp: () => ReturnType<typeof decodeBundleTempData> extends Either.Either<infer R, unknown> ? R : never
  readonly tokenBalance: (tokenAccount: string) => bigint
  readonly ata: (owner: string) => Address
  readonly pdas: ReturnType<typeof vaultAddresses>
  readonly advanceSeconds: (seconds: number) => void
}

export const defaultVaultConfig = (keeper: string, manager: string): VaultConfig => ({
  address: VAULT,
  name: "Master Bundle",
  mint: MINT,
  decimals: 6,
  manager,
  keeper,
  depositFeeBps: 25,
  withdrawalFeeBps: 30,
  performanceFeeBps: 0,
  managementFeeBps: 100,
  minDepositAmount: 5n * USDC,
  maxDepositAmount: 0n,
  withdrawalDelaySeconds: 0n,
  withdrawalTMinSeconds: 60n,
  withdrawalTMaxSeconds: 3600n,
  withdrawalCurve: 1,
  oracleMaxAgeSeconds: 0n,
  oracleUpdateTimeLimitSeconds: 0n,
  oracleBufferBps: 0n,
  referral: { minDepositAmount: 0n, tiers: LADDER },
  seedUnderlying: 1_000_000n * USDC,
  seedExternalEquity: 0n
})

const right = <R>(either: Either.Either<R, unknown>): R => {
  if (Either.isLeft(either)) throw new Error(`decode failed: ${String(either.left)}`)
  return either.right
}

export const makeHarness = (options: {
  readonly vault?: (config: VaultConfig) => VaultConfig
  /** More vaults on the same chain (same keeper and manager), each from the default config. */
  readonly moreVaults?: ReadonlyArray<(config: VaultConfig) => VaultConfig>
  readonly wallets?: ReadonlyArray<string>; readonly tokensPerWallet?: bigint } = {}): Harness => {
  const chain = createSandboxChain({ seed: "ntbundle-test", runId: "ntbundle-test", slotMs: 400 })
  chain.registerProgram(createNtbundleProgram({ programId: chain.programId }))
  const programId = chain.programId as Address
  const keeper = deterministicKeypair("ntbundle-test", "keeper")
  const manager = deterministicKeypair("ntbundle-test", "manager")
  const wallet = (label: string): Keypair => deterministicKeypair("ntbundle-test", label)
  const tokens = new TokenGenesis()
  tokens.addMint({ address: MINT, decimals: 6, mintAuthority: chain.faucet.address })
  const config = (options.vault ?? ((base) => base))(defaultVaultConfig(keeper.address, manager.address))
  const now = BigInt(chain.ledger.clock.blockTime())
  const vault = vaultAccounts(programId, config, tokens, now)
  for (const more of options.moreVaults ?? []) vault.push(...vaultAccounts(programId, more(defaultVaultConfig(keeper.address, manager.address)), tokens, now))
  for (const payer of [keeper, manager]) tokens.fund(payer.address, 100n * 10n ** 9n)
  tokens.credit(manager.address, MINT, 1_000n * USDC)
  for (const label of options.wallets ?? ["alice", "bob", "carol", "builder", "builder2"]) {
    tokens.fund(wallet(label).address, 10n * 10n ** 9n)
    tokens.credit(wallet(label).address, MINT, options.tokensPerWallet ?? 20_000_000n * USDC)
  }
  chain.ledger.writeAccounts([...tokens.states(), ...vault])

  const data = (address: string): Uint8Array | null => chain.ledger.getAccount(address)?.data ?? null
  const harness: Harness = {
    chain,
    programId,
    vault: VAULT as Address,
    mint: MINT as Address,
    keeper,
    manager,
    wallet,
    pdas: vaultAddresses(programId, VAULT, MINT),
    // One slot per transaction, as on a live chain: identical transactions in one slot would
    // share a signature and the second would be refused as AlreadyProcessed.
    send: (payer, instructions, signers = []) => {
      chain.step(1)
      return chain.submit({
        feePayer: payer,
        signers,
        instructions: instructions.map((instruction) => ("programAddress" in instruction ? fromKitInstruction(instruction) : instruction))
      })
    },
    events: (outcome) => ("result" in outcome && outcome.result !== undefined ? eventsFromLogs(outcome.result.logs, programId).map(({ event }) => event) : []),
    userIn: (owner, vaultAddress) => {
      const bytes = data(findUserBundlePda(programId, owner as Address, vaultAddress as Address)[0])
      return bytes === null ? null : right(decodeUserBundleAccount(bytes))
    },
    user: (owner) => harness.userIn(owner, VAULT),
    referrer: (referrerWallet) => {
      const bytes = data(findReferrerPda(programId, VAULT as Address, referrerWallet as Address)[0])
      return bytes === null ? null : right(decodeReferrerAccount(bytes))
    },
    bundle: () => right(decodeBundle(data(VAULT)!)),
    oracle: () => right(decodeOracleData(data(harness.pdas.oracleData)!)),
    temp: () => right(decodeBundleTempData(data(harness.pdas.bundleTempData)!)),
    tokenBalance: (tokenAccount) => decodeTokenAccount(data(tokenAccount) ?? new Uint8Array(0))?.amount ?? 0n,
    ata: (owner) => associatedTokenAddress(owner, MINT) as Address,
    advanceSeconds: (seconds) => {
      chain.step(1, seconds * 1000)
    }
  }
  return harness
}

/** The error of a refused or failed transaction, as JSON shows it. */
export const errorOf = (outcome: SendOutcome): unknown => ("result" in outcome && outcome.result !== undefined ? outcome.result.err : outcome.kind)

export const customErrorOf = (outcome: SendOutcome): number | undefined => {
  const err = errorOf(outcome) as { InstructionError?: [number, { Custom?: number } | string] } | null
  const detail = err?.InstructionError?.[1]
  return typeof detail === "object" ? detail.Custom : undefined
}

export const expectLanded = (outcome: SendOutcome): SendOutcome => {
  if (outcome.kind !== "landed" || outcome.result.err !== null) {
    const logs = "result" in outcome && outcome.result !== undefined ? outcome.result.logs.join("\n") : ""
    throw new Error(`transaction did not land: ${JSON.stringify(errorOf(outcome))}\n${logs}`)
  }
  return outcome
}

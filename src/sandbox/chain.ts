import { createHash, randomBytes } from "node:crypto"
import { encodeBase58 } from "../ntbundle/base58.ts"
import { writeI64, writeU64 } from "./codec/bytes.ts"
import { addressToBytes, deterministicKeypair, type Keypair } from "./crypto/keypair.ts"
import type { Seed } from "./crypto/random.ts"
import { Ledger, type AccountState } from "./ledger/ledger.ts"
import { BUILTIN_PROGRAMS, programAccountState } from "./programs/builtins.ts"
import { SYSTEM_PROGRAM_ID, SYSVAR_CLOCK_ID, SYSVAR_OWNER_ID, SYSVAR_RENT_ID, TOKEN_PROGRAM_ID, minimumBalanceForRentExemption } from "./programs/ids.ts"
import { associatedTokenAddress, createAssociatedTokenAccount, memo, systemTransfer, tokenMintTo } from "./programs/instructions.ts"
import { decodeMint, encodeMint, MINT_SIZE } from "./programs/tokenLayout.ts"
import { BPF_UPGRADEABLE_LOADER_ID, ProgramRegistry, type Instruction, type ProgramHandler } from "./runtime/program.ts"
import { TransactionProcessor, type SendOutcome, type SubmitRequest } from "./runtime/processor.ts"
import { SlotScheduler } from "./scheduler.ts"
import { WalletRegistry } from "./wallets.ts"

/**
 * The sandbox chain without its network face: ledger, programs, the transaction path, the slot
 * clock's hooks, wallets and a faucet. Usable directly in-process (bulk loads, unit tests); the
 * servers in `server.ts` put JSON-RPC and PubSub in front of it.
 */
export interface ChainOptions {
  readonly seed: Seed
  readonly programId: string
  readonly slotMs: number
  /** Defaults to 1000; block height 0 is at this slot. */
  readonly firstSlot?: number
  readonly finalityLagSlots?: number
  /** Block time of the first slot; by default the tip starts at now. Put it in the past to fast-forward history. */
  readonly genesisUnixMs?: number
  /** Makes the genesis hash (and every blockhash) reproducible; defaults to a random run id. */
  readonly runId?: string
  /** Landed transactions kept for getTransaction / getSignaturesForAddress (default 250k, about 2 KB each; oldest forgotten first). */
  readonly transactionRetention?: number
}

const FAUCET_LAMPORTS = 1_000_000_000n * 1_000_000_000n

export class SandboxChain {
  readonly ledger: Ledger
  readonly programs = new ProgramRegistry()
  readonly processor: TransactionProcessor
  readonly scheduler = new SlotScheduler()
  readonly wallets = new WalletRegistry()
  /** Holds most of the SOL and is the mint authority of mints created with createMint. */
  readonly faucet: Keypair
  readonly genesisHash: string
  readonly seed: Seed
  readonly programId: string
  readonly slotMs: number
  private uniqueCounter = 0

  constructor(options: ChainOptions) {
    this.seed = options.seed
    this.programId = options.programId
    this.slotMs = options.slotMs
    const runId = options.runId ?? randomBytes(16).toString("hex")
    const genesisBytes = createHash("sha256").update(`vault-gateway/sandbox-genesis/v1\0${String(options.seed)}\0${runId}`).digest()
    this.genesisHash = encodeBase58(genesisBytes)
    const finalityLagSlots = options.finalityLagSlots ?? 32
    this.ledger = new Ledger({
      genesisHash: genesisBytes,
      firstSlot: options.firstSlot ?? 1000,
      // By default the tip (finalityLagSlots after the first slot, see below) starts at now.
      genesisUnixMs: options.genesisUnixMs ?? Date.now() - finalityLagSlots * options.slotMs,
      slotMs: options.slotMs,
      finalityLagSlots,
      transactionRetention: options.transactionRetention ?? 250_000
    })
    this.processor = new TransactionProcessor(this.ledger, this.programs)
    this.faucet = deterministicKeypair(options.seed, "faucet")
    for (const handler of BUILTIN_PROGRAMS) this.registerProgram(handler)
    this.ledger.writeAccounts([
      [this.faucet.address, { owner: SYSTEM_PROGRAM_ID, lamports: FAUCET_LAMPORTS, data: new Uint8Array(0), executable: false }],
      [SYSVAR_RENT_ID, { owner: SYSVAR_OWNER_ID, lamports: minimumBalanceForRentExemption(17), data: rentSysvarData(), executable: false }],
      [SYSVAR_CLOCK_ID, this.clockSysvar()]
    ])
    if (this.ledger.getAccount(options.programId) === undefined) {
      this.ledger.writeAccounts([[options.programId, programAccountState("bpf", BPF_UPGRADEABLE_LOADER_ID)]])
    }
    // Start with a finalized history behind the tip, so that the first transactions are not
    // finalized the moment they land.
    this.ledger.advanceSlots(this.ledger.clock.finalityLagSlots)
    this.ledger.writeAccounts([[SYSVAR_CLOCK_ID, this.clockSysvar()]])
  }

  /** Plugs a program in (replacing any handler of that id) and shows its executable account. */
  registerProgram(handler: ProgramHandler, options: { readonly loader?: string } = {}): void {
    this.programs.register(handler)
    const existing = this.ledger.getAccount(handler.programId)
    if (existing === undefined || !existing.executable) {
      this.ledger.writeAccounts([[handler.programId, programAccountState(handler.kind, options.loader)]])
    }
  }

  /** Advances `slots` slots (each `msPerSlot` long), running the slot tasks of each; returns the tip. */
  step(slots = 1, msPerSlot?: number): number {
    for (let index = 0; index < slots; index++) {
      this.ledger.advanceSlots(1, msPerSlot)
      this.ledger.writeAccounts([[SYSVAR_CLOCK_ID, this.clockSysvar()]])
      this.scheduler.runSlot(this.ledger.slot)
    }
    return this.ledger.slot
  }

  /** Signs with the given keypairs and sends through the sendTransaction path. */
  submit(request: SubmitRequest): SendOutcome {
    return this.processor.submit(request)
  }

  /** Writes an account directly (no transaction), as sandbox_setAccount does. */
  setAccount(address: string, state: AccountState): void {
    addressToBytes(address)
    addressToBytes(state.owner)
    this.ledger.writeAccounts([[address, state]])
  }

  /** Creates an initialized mint at `address` (direct write) whose mint authority is the faucet. */
  createMint(address: string, decimals: number, supply = 0n): void {
    const data = encodeMint({ mintAuthority: this.faucet.address, supply, decimals, isInitialized: true, freezeAuthority: null })
    this.setAccount(address, { owner: TOKEN_PROGRAM_ID, lamports: minimumBalanceForRentExemption(MINT_SIZE), data, executable: false })
  }

  airdropSol(address: string, lamports: bigint): SendOutcome {
    return this.submitUnique([systemTransfer(this.faucet.address, address, lamports)])
  }

  /** Creates the owner's associated token account if needed and mints `amount` into it. */
  airdropTokens(owner: string, mint: string, amount: bigint): SendOutcome & { readonly tokenAccount: string } {
    const mintAccount = this.ledger.getAccount(mint)
    const decoded = mintAccount?.owner === TOKEN_PROGRAM_ID ? decodeMint(mintAccount.data) : undefined
    if (decoded === undefined) throw new Error(`${mint} is not a mint`)
    if (decoded.mintAuthority !== this.faucet.address) throw new Error(`the mint authority of ${mint} is not the sandbox faucet`)
    const tokenAccount = associatedTokenAddress(owner, mint)
    const outcome = this.submitUnique([
      createAssociatedTokenAccount(this.faucet.address, owner, mint, { idempotent: true }),
      tokenMintTo(mint, tokenAccount, this.faucet.address, amount)
    ])
    return { ...outcome, tokenAccount }
  }

  /** Faucet transactions repeat; a memo keeps a repeat within one blockhash from being a duplicate. */
  private submitUnique(instructions: ReadonlyArray<Instruction>): SendOutcome {
    const outcome = this.submit({ feePayer: this.faucet, instructions })
    if (outcome.kind !== "preflightFailed" || outcome.result.err !== "AlreadyProcessed") return outcome
    return this.submit({ feePayer: this.faucet, instructions: [...instructions, memo(`sandbox faucet ${++this.uniqueCounter}`)] })
  }

  private clockSysvar(): AccountState {
    const slot = this.ledger.slot
    const data = new Uint8Array(40)
    writeU64(data, 0, BigInt(slot))
    writeI64(data, 8, BigInt(this.ledger.clock.blockTime(this.ledger.clock.firstSlot)))
    writeI64(data, 32, BigInt(this.ledger.clock.blockTime(slot)))
    return { owner: SYSVAR_OWNER_ID, lamports: minimumBalanceForRentExemption(40), data, executable: false }
  }
}

/** Rent sysvar: 3480 lamports per byte-year, exemption threshold 2.0 years, 50% burn. */
const rentSysvarData = (): Uint8Array => {
  const data = new Uint8Array(17)
  const view = new DataView(data.buffer)
  view.setBigUint64(0, 3480n, true)
  view.setFloat64(8, 2, true)
  data[16] = 50
  return data
}

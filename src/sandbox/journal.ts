import fs from "node:fs"
import path from "node:path"
import type { SandboxControl } from "./rpc/environment.ts"
import type { TransactionProcessor } from "./runtime/processor.ts"

/**
 * What makes a persisted sandbox chain: the instant it was generated from (with the same knobs, the
 * same seed and instant regenerate the same history, see `scenarioChainOptions`) and, in order,
 * everything that happened to it after the history: slots advanced, transactions users sent, faucet
 * and account writes. Each entry is on disk (fsync) before it takes effect, so a crash loses nothing
 * the sandbox confirmed; replaying the entries on the regenerated chain restores it exactly.
 */
export type JournalEntry =
  | { readonly slots: number }
  | { readonly fastForwardTo: number }
  | { readonly tx: string; readonly skipPreflight: boolean }
  | { readonly control: "requestAirdrop"; readonly address: string; readonly lamports: string }
  | { readonly control: "airdrop" | "setAccount"; readonly params: ReadonlyArray<unknown> }

export interface ChainIdentity {
  readonly startMs: number
  /** The settings the chain was generated with; another set makes another chain. */
  readonly knobs: string
}

const IDENTITY = "chain.json"
const JOURNAL = "journal.jsonl"
const OWNER = "owner.pid"

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

export class SandboxJournal {
  private fd: number | null = null

  private constructor(readonly dir: string) {}

  /** The persisted chain in `dir` when it was made with `knobs`, else null. */
  static existing(dir: string, knobs: string): { readonly identity: ChainIdentity; readonly entries: Array<JournalEntry> } | null {
    const identityFile = path.join(dir, IDENTITY)
    if (!fs.existsSync(identityFile)) return null
    const identity = JSON.parse(fs.readFileSync(identityFile, "utf8")) as ChainIdentity
    if (identity.knobs !== knobs) return null
    const journal = path.join(dir, JOURNAL)
    const text = fs.existsSync(journal) ? fs.readFileSync(journal, "utf8") : ""
    const entries: Array<JournalEntry> = []
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue
      try {
        entries.push(JSON.parse(line) as JournalEntry)
      } catch {
        break // a line torn by a crash mid-write: it never took effect
      }
    }
    return { identity, entries }
  }

  /** Whether a chain made with other settings is kept in `dir`. */
  static other(dir: string, knobs: string): boolean {
    const identityFile = path.join(dir, IDENTITY)
    return fs.existsSync(identityFile) && (JSON.parse(fs.readFileSync(identityFile, "utf8")) as ChainIdentity).knobs !== knobs
  }

  /** Starts a new persisted chain in `dir` (replacing any), or reopens the existing one for appending. */
  static open(dir: string, identity: ChainIdentity, fresh: boolean): SandboxJournal {
    fs.mkdirSync(dir, { recursive: true })
    const journal = new SandboxJournal(dir)
    if (fresh) {
      fs.rmSync(path.join(dir, JOURNAL), { force: true })
      const tmp = path.join(dir, `${IDENTITY}.tmp`)
      fs.writeFileSync(tmp, JSON.stringify(identity) + "\n")
      fs.renameSync(tmp, path.join(dir, IDENTITY))
    }
    journal.fd = fs.openSync(path.join(dir, JOURNAL), "a")
    if (fresh) fs.fsyncSync(journal.fd)
    fs.writeFileSync(path.join(dir, OWNER), `${process.pid}\n`)
    return journal
  }

  /** The live process that has the chain in `dir` open (a running `serve`), if any. */
  static owner(dir: string): number | null {
    const file = path.join(dir, OWNER)
    if (!fs.existsSync(file)) return null
    const pid = Number(fs.readFileSync(file, "utf8").trim())
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null
  }

  static reset(dir: string): boolean {
    const existed = fs.existsSync(dir)
    fs.rmSync(dir, { recursive: true, force: true })
    return existed
  }

  append(entry: JournalEntry): void {
    if (this.fd === null) return
    fs.writeSync(this.fd, JSON.stringify(entry) + "\n")
    fs.fsyncSync(this.fd)
  }

  close(): void {
    if (this.fd !== null) {
      fs.closeSync(this.fd)
      fs.rmSync(path.join(this.dir, OWNER), { force: true })
    }
    this.fd = null
  }
}

/** The processor as the RPC sees it: every sendTransaction is journaled before it is processed. */
export const journaledProcessor = (processor: TransactionProcessor, journal: SandboxJournal): TransactionProcessor =>
  new Proxy(processor, {
    get: (target, property) => {
      if (property === "send") {
        return (wire: Uint8Array, options: { readonly skipPreflight?: boolean } = {}) => {
          journal.append({ tx: Buffer.from(wire).toString("base64"), skipPreflight: options.skipPreflight === true })
          return target.send(wire, options)
        }
      }
      const value = Reflect.get(target, property, target) as unknown
      return typeof value === "function" ? (value as (...args: Array<unknown>) => unknown).bind(target) : value
    }
  })

/** The sandbox_* methods that change the ledger, journaled before they run. */
export const journaledControl = (control: SandboxControl, journal: SandboxJournal): SandboxControl => ({
  ...control,
  requestAirdrop: (address, lamports) => {
    journal.append({ control: "requestAirdrop", address, lamports: lamports.toString() })
    return control.requestAirdrop(address, lamports)
  },
  airdrop: (params) => {
    journal.append({ control: "airdrop", params: [...params] })
    return control.airdrop(params)
  },
  setAccount: (params) => {
    journal.append({ control: "setAccount", params: [...params] })
    return control.setAccount(params)
  }
})

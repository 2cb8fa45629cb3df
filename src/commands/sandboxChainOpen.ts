import { createSandboxChain, type SandboxHandle, startSandbox } from "../sandbox/sandbox.ts"
import { installScenario, type Scenario, scenarioChainOptions, type ScenarioSandboxOptions } from "../sandbox/scenario/index.ts"
import { historyStartMs, scenarioKnobs } from "../sandbox/scenario/config.ts"
import { type JournalEntry, SandboxJournal } from "../sandbox/journal.ts"
import { createControl } from "../sandbox/control.ts"
import { Faults } from "../sandbox/faults.ts"
import type { SandboxChain } from "../sandbox/chain.ts"

// Plain promises, no Effect: the sandbox chain's thread loads this module graph alone, and Effect's
// runtime would cost that thread some 35 MB (see test/architecture/sandboxThreadImports.test.ts).

export interface OpenSandboxHooks {
  /** Aborting stops the history generation or the replay between two steps, and closes what was opened. */
  readonly signal?: AbortSignal
  readonly warn?: (message: string) => void
}

export interface OpenedSandboxChain {
  readonly handle: SandboxHandle
  readonly resumed: boolean
  readonly close: () => Promise<void>
}

/** Lets other work on the thread run (and an abort be seen) between two steps. */
const yieldThread = (signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) =>
    setImmediate(() => (signal?.aborted === true ? reject(new Error("the sandbox chain's start was cancelled")) : resolve()))
  )

/** One history step at a time, yielding between steps. */
const fastForward = async (scenario: Scenario, now: number, signal: AbortSignal | undefined) => {
  if (scenario.options.historyDays === 0) return
  const stepMs = Math.max(60_000, scenario.options.historyStepSeconds * 1_000)
  for (let until = historyStartMs(scenario.options, now) + stepMs; until < now; until += stepMs) {
    scenario.fastForward(until)
    await yieldThread(signal)
  }
  scenario.fastForward(now)
}

/** Replays what happened to a persisted chain after its history, yielding now and then. */
const replay = async (chain: SandboxChain, scenario: Scenario, entries: ReadonlyArray<JournalEntry>, signal: AbortSignal | undefined) => {
  const control = createControl({
    chain,
    faults: new Faults(chain.seed),
    urls: () => ({ rpcUrl: "", wsUrl: "" }),
    clockMode: "auto",
    step: (slots) => chain.step(slots)
  })
  let work = 0
  for (const entry of entries) {
    try {
      if ("slots" in entry) chain.step(entry.slots)
      else if ("fastForwardTo" in entry) scenario.fastForward(entry.fastForwardTo)
      else if ("tx" in entry) chain.processor.send(new Uint8Array(Buffer.from(entry.tx, "base64")), { skipPreflight: entry.skipPreflight })
      else if (entry.control === "requestAirdrop") control.requestAirdrop(entry.address, BigInt(entry.lamports))
      else control[entry.control](entry.params)
    } catch {
      // a faucet request that failed then fails again now: it changed nothing either time
    }
    work += "slots" in entry ? entry.slots : 1
    if (work >= 200) {
      work = 0
      await yieldThread(signal)
    }
  }
}

/**
 * The scenario sandbox in this process (`vault-gateway sandbox`, and `serve` without an RPC
 * endpoint): genesis days in the past, its history generated, then JSON-RPC and PubSub on loopback
 * until `close()`. With `persistDir`, the chain survives restarts: the same settings find the chain
 * kept there (regenerated from its start instant, then its journal replayed, then brought up to
 * now); other settings or no chain there start a new one. A failure closes what was opened.
 */
export const openSandboxChain = async (
  options: ScenarioSandboxOptions & { readonly persistDir?: string },
  hooks: OpenSandboxHooks = {}
): Promise<OpenedSandboxChain> => {
  const { signal } = hooks
  const knobs = scenarioKnobs(options)
  const dir = options.persistDir
  const kept = dir === undefined ? null : SandboxJournal.existing(dir, knobs)
  if (dir !== undefined && kept === null && SandboxJournal.other(dir, knobs)) {
    hooks.warn?.(`the sandbox chain in ${dir} was made with other settings; starting a new chain`)
  }
  const now = kept?.identity.startMs ?? Date.now()
  const chain = createSandboxChain({ ...options, ...scenarioChainOptions(options, now) })
  const scenario = installScenario(chain, options)
  let journal: SandboxJournal | undefined
  try {
    await fastForward(scenario, now, signal)
    if (kept !== null) await replay(chain, scenario, kept.entries, signal)
    journal = dir === undefined ? undefined : SandboxJournal.open(dir, { startMs: now, knobs }, kept === null)
    if (kept !== null && journal !== undefined && Date.now() - chain.ledger.clock.unixMs() > chain.slotMs) {
      // the time the sandbox was down passes with history pacing, as the generated history did
      const until = Date.now()
      journal.append({ fastForwardTo: until })
      scenario.fastForward(until)
    }
    const handle = await startSandbox({ ...options, chain, ...(journal === undefined ? {} : { journal }) })
    const opened = journal
    return {
      handle,
      resumed: kept !== null,
      close: async () => {
        await handle.close()
        opened?.close()
        scenario.stop()
      }
    }
  } catch (error) {
    journal?.close()
    scenario.stop()
    throw error
  }
}

import path from "node:path"
import { Effect, type Scope } from "effect"
import { SandboxStartError } from "../sandbox/layer.ts"
import { createSandboxChain, type SandboxHandle, startSandbox } from "../sandbox/sandbox.ts"
import { installScenario, type Scenario, scenarioChainOptions, type ScenarioSandboxOptions } from "../sandbox/scenario/index.ts"
import { historyStartMs, scenarioKnobs } from "../sandbox/scenario/config.ts"
import { type JournalEntry, SandboxJournal } from "../sandbox/journal.ts"
import { createControl } from "../sandbox/control.ts"
import { Faults } from "../sandbox/faults.ts"
import type { SandboxChain } from "../sandbox/chain.ts"

const failed = (error: unknown) => new SandboxStartError({ message: error instanceof Error ? error.message : String(error) })

/** Where `serve` keeps its sandbox chain inside DATA_DIR. */
export const sandboxChainDir = (dataDir: string) => path.join(dataDir, "sandbox")

/** One history step at a time, yielding between steps: HTTP keeps answering, and a shutdown interrupts it promptly. */
const fastForward = (scenario: Scenario, now: number) =>
  Effect.gen(function*() {
    if (scenario.options.historyDays === 0) return
    const stepMs = Math.max(60_000, scenario.options.historyStepSeconds * 1_000)
    for (let until = historyStartMs(scenario.options, now) + stepMs; until < now; until += stepMs) {
      yield* Effect.try({ try: () => scenario.fastForward(until), catch: failed })
      yield* Effect.sleep(0)
    }
    yield* Effect.try({ try: () => scenario.fastForward(now), catch: failed })
  })

/** Replays what happened to a persisted chain after its history, yielding now and then. */
const replay = (chain: SandboxChain, scenario: Scenario, entries: ReadonlyArray<JournalEntry>) =>
  Effect.gen(function*() {
    const control = createControl({
      chain,
      faults: new Faults(chain.seed),
      urls: () => ({ rpcUrl: "", wsUrl: "" }),
      clockMode: "auto",
      step: (slots) => chain.step(slots)
    })
    let work = 0
    for (const entry of entries) {
      yield* Effect.try({
        try: () => {
          if ("slots" in entry) chain.step(entry.slots)
          else if ("fastForwardTo" in entry) scenario.fastForward(entry.fastForwardTo)
          else if ("tx" in entry) chain.processor.send(new Uint8Array(Buffer.from(entry.tx, "base64")), { skipPreflight: entry.skipPreflight })
          else if (entry.control === "requestAirdrop") control.requestAirdrop(entry.address, BigInt(entry.lamports))
          else control[entry.control](entry.params)
        },
        // a faucet request that failed then fails again now: it changed nothing either time
        catch: failed
      }).pipe(Effect.ignore)
      work += "slots" in entry ? entry.slots : 1
      if (work >= 200) {
        work = 0
        yield* Effect.sleep(0)
      }
    }
  })

/**
 * The scenario sandbox in this process (`vault-gateway sandbox`, and `serve` without an RPC
 * endpoint): genesis days in the past, history generated in the background, then JSON-RPC and
 * PubSub on loopback until the scope closes. With `persistDir`, the chain survives restarts: the
 * same settings find the chain kept there (regenerated from its start instant, then its journal
 * replayed, then brought up to now); other settings or no chain there start a new one.
 */
export const scenarioSandboxScoped = (
  options: ScenarioSandboxOptions & { readonly persistDir?: string }
): Effect.Effect<
  { readonly rpcUrl: string; readonly wsUrl: string; readonly handle: SandboxHandle; readonly resumed: boolean },
  SandboxStartError,
  Scope.Scope
> =>
  Effect.gen(function*() {
    const knobs = scenarioKnobs(options)
    const dir = options.persistDir
    const kept = dir === undefined ? null : yield* Effect.try({ try: () => SandboxJournal.existing(dir, knobs), catch: failed })
    if (dir !== undefined && kept === null && SandboxJournal.other(dir, knobs)) {
      yield* Effect.logWarning(`the sandbox chain in ${dir} was made with other settings; starting a new chain`)
    }
    const now = kept?.identity.startMs ?? Date.now()
    const chain = createSandboxChain({ ...options, ...scenarioChainOptions(options, now) })
    const scenario = yield* Effect.try({ try: () => installScenario(chain, options), catch: failed })
    yield* Effect.addFinalizer(() => Effect.sync(() => scenario.stop()))
    yield* fastForward(scenario, now)
    if (kept !== null) yield* replay(chain, scenario, kept.entries)
    const journal = dir === undefined
      ? undefined
      : yield* Effect.acquireRelease(
        Effect.try({ try: () => SandboxJournal.open(dir, { startMs: now, knobs }, kept === null), catch: failed }),
        (journal) => Effect.sync(() => journal.close())
      )
    if (kept !== null && journal !== undefined && Date.now() - chain.ledger.clock.unixMs() > chain.slotMs) {
      // the time the sandbox was down passes with history pacing, as the generated history did
      const until = Date.now()
      journal.append({ fastForwardTo: until })
      yield* Effect.try({ try: () => scenario.fastForward(until), catch: failed })
    }
    const handle = yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => startSandbox({ ...options, chain, ...(journal === undefined ? {} : { journal }) }), catch: failed }),
      (handle) => Effect.promise(() => handle.close())
    )
    return { rpcUrl: handle.rpcUrl, wsUrl: handle.wsUrl, handle, resumed: kept !== null }
  })

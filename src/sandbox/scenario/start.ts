import { createSandboxChain, startSandbox, type SandboxHandle, type SandboxOptions } from "../sandbox.ts"
import { scenarioChainOptions, type ScenarioOptions } from "./config.ts"
import { installScenario, type Scenario } from "./scenario.ts"

/**
 * The sandbox with a scenario, in-process: creates the chain (genesis in the past when
 * `historyDays` is set), installs the scenario, fast-forwards its history to now, then opens
 * JSON-RPC and PubSub. `close()` unhooks the scenario and closes the sandbox.
 */
export interface ScenarioSandbox {
  readonly handle: SandboxHandle
  readonly scenario: Scenario
  readonly close: () => Promise<void>
}

export type ScenarioSandboxOptions = Omit<SandboxOptions, "chain" | "genesisUnixMs"> & ScenarioOptions

export const startScenarioSandbox = async (options: ScenarioSandboxOptions = {}): Promise<ScenarioSandbox> => {
  const chain = createSandboxChain({ ...options, ...scenarioChainOptions(options) })
  const scenario = installScenario(chain, options)
  if (scenario.options.historyDays > 0) scenario.fastForward()
  const handle = await startSandbox({ ...options, chain })
  return {
    handle,
    scenario,
    close: async () => {
      scenario.stop()
      await handle.close()
    }
  }
}

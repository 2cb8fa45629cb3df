/**
 * Seeded scenarios for the sandbox chain: the registry's vaults, wallets, builders, activity and
 * a keeper. `startScenarioSandbox` runs one in-process behind JSON-RPC and PubSub;
 * `installScenario` puts one on a chain you hold (tests, benchmarks).
 */
export { startScenarioSandbox, type ScenarioSandbox, type ScenarioSandboxOptions } from "./start.ts"
export { installScenario, type Scenario } from "./scenario.ts"
export { resolveScenarioOptions, scenarioChainOptions, type ScenarioOptions } from "./config.ts"
export type { BulkReport } from "./bulk.ts"
export { standardLadder, type PlannedVault } from "./vaultPlan.ts"

import type { RpcMethod } from "./environment.ts"

/** The sandbox_* methods: a contract that tests and tools rely on (see SandboxControl). */
export const sandboxMethods: Record<string, RpcMethod> = {
  sandbox_info: (_params, { control }) => control.info(),
  sandbox_snapshot: (params, { control }) => control.snapshot(params),
  sandbox_step: (params, { control }) => control.step(params),
  sandbox_airdrop: (params, { control }) => control.airdrop(params),
  sandbox_setAccount: (params, { control }) => control.setAccount(params),
  sandbox_wallets: (_params, { control }) => control.wallets(),
  sandbox_fault: (params, { control }) => control.fault(params)
}

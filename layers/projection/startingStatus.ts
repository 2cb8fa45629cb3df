import type { ProjectionStatus } from "../../src/domain/status.ts"

/** The status before anything is restored; `origin` names the chain endpoints once they are known. */
export const startingStatus = (
  reason: string | null,
  origin: { readonly rpcUrl: string; readonly wsUrl: string } | null = null
): ProjectionStatus => ({
  status: "starting",
  asOf: null,
  chainSlot: null,
  lagSlots: null,
  lagSeconds: null,
  checkpointSlot: null,
  reason,
  rpcUrl: origin?.rpcUrl ?? null,
  wsUrl: origin?.wsUrl ?? null
})

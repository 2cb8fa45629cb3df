import type { AsOf } from "./chainPosition.ts"

/** `starting -> restoring -> catching_up -> live`, and `degraded` when the stream is down or lagging. */
export type ProjectionPhase = "starting" | "restoring" | "catching_up" | "live" | "degraded"

export interface ProjectionStatus {
  readonly status: ProjectionPhase
  /** The chain position the projection reflects; null before anything is restored or ingested. */
  readonly asOf: AsOf | null
  /** The newest slot the chain has reported. */
  readonly chainSlot: number | null
  readonly lagSlots: number | null
  readonly lagSeconds: number | null
  /** The slot of the last checkpoint written to PostgreSQL. */
  readonly checkpointSlot: number | null
  /** Why the projection is degraded or not yet live, for operators. */
  readonly reason: string | null
  readonly rpcUrl: string | null
  readonly wsUrl: string | null
}

export const isLive = (status: ProjectionStatus): boolean => status.status === "live"

import type { Address } from "@solana/kit"
import type { ProjectionState } from "../projection/state.ts"
import type { LatestBlockhash } from "./blockhash.ts"

/** What every build reads besides its request; all of it in memory, so a build does no I/O. */
export interface BuildContext {
  /** The live projection (read synchronously inside `Projection.read`; never mutated). */
  readonly state: ProjectionState
  /** The cluster's ntbundle program: builds target only it, as the official clients require. */
  readonly program: Address
  readonly blockhash: LatestBlockhash
  /** The compute-unit price when the request names none (the PriorityFees estimate). */
  readonly defaultPriorityFeeMicroLamports: bigint
  /** Chain time, unix seconds (the projection's latest block time). */
  readonly now: bigint
}

import { Schema } from "effect"
import type { ProjectionStatus } from "../../domain/status.ts"
import type { BackfillReport, CheckpointReport, RollupReport } from "../../../services/IngestionProgress.ts"
import type { LeadershipRole } from "../../../services/Leadership.ts"
import { StatusBody, toStatusBody } from "./statusBody.ts"

const Backfill = Schema.Struct({
  state: Schema.Literal("pending", "running", "done"),
  done: Schema.Int.annotations({ description: "Program transactions fetched and stored so far" }),
  total: Schema.NullOr(Schema.Int).annotations({ description: "Estimated transactions in all (the signature listing's count)" }),
  ratePerSecond: Schema.NullOr(Schema.Number).annotations({ description: "Transactions per second fetched by this process" }),
  etaSeconds: Schema.NullOr(Schema.Int).annotations({ description: "Seconds left at that rate; 0 when done, null when unknown" })
}).annotations({ identifier: "BackfillProgress", description: "The history backfill (the event log's past transactions)" })

const Rollup = Schema.Struct({
  state: Schema.Literal("waiting", "replaying", "live", "failed"),
  closedThrough: Schema.NullOr(Schema.String).annotations({ description: "The last UTC day closed (YYYY-MM-DD)" })
}).annotations({ identifier: "RollupState", description: "The daily rollup that closes the history rows" })

/** `/status`: the projection's status plus the background work behind it, for operators. */
export const ServiceStatusBody = Schema.extend(
  StatusBody,
  Schema.Struct({
    backfill: Schema.NullOr(Backfill),
    rollup: Schema.NullOr(Rollup),
    role: Schema.Literal("leader", "follower").annotations({
      description: "This instance among those on one database: the leader writes checkpoints, the history backfill and the daily rollups; a follower serves from its own projection and restores from the leader's checkpoints"
    }),
    checkpointAgeSeconds: Schema.NullOr(Schema.Int).annotations({
      description: "Seconds since the last checkpoint was written to PostgreSQL by this process; null before the first"
    })
  })
).annotations({ identifier: "ServiceStatus" })
export type ServiceStatusBody = typeof ServiceStatusBody.Type

export interface BackgroundWork {
  readonly backfill: BackfillReport | null
  readonly rollup: RollupReport | null
  readonly checkpoint: CheckpointReport | null
  readonly role: LeadershipRole
}

export const toServiceStatusBody = (status: ProjectionStatus, work: BackgroundWork, nowSeconds: number): ServiceStatusBody => ({
  ...toStatusBody(status),
  backfill: work.backfill === null
    ? null
    : {
      state: work.backfill.state,
      done: work.backfill.done,
      total: work.backfill.total,
      ratePerSecond: work.backfill.ratePerSecond === null ? null : Math.round(work.backfill.ratePerSecond * 10) / 10,
      etaSeconds: work.backfill.etaSeconds
    },
  rollup: work.rollup,
  role: work.role,
  checkpointAgeSeconds: work.checkpoint === null ? null : Math.max(0, Math.floor(nowSeconds - work.checkpoint.writtenAt))
})

import { Metric, MetricBoundaries, MetricLabel } from "effect"

/**
 * The gateway's Prometheus instruments, as Effect metrics (the exporter reads Effect's registry).
 * Labels are bounded sets only: route templates, phases, outcomes, codes from the registry; never a
 * raw path, an address or a key. Hot paths update them with `unsafeUpdate(value, NO_TAGS)`, which
 * reuses the registered hook instead of looking the key up again.
 */
export const NO_TAGS: ReadonlyArray<never> = []

/** One label set of an instrument, ready for hot paths. */
export interface Labelled<In> {
  readonly update: (value: In) => void
  readonly modify: (value: In) => void
}

/**
 * An instrument with fixed labels. Effect keeps the hook of a label array it has seen (by identity),
 * so updating through one array made once is a lookup; `Metric.tagged` would merge the labels and
 * look the metric up in the registry on every update (measured: half the throughput of a cached read).
 */
export const labelled = <In>(metric: Metric.Metric<any, In, any>, labels: Readonly<Record<string, string>>): Labelled<In> => {
  const tags = Object.entries(labels).map(([key, value]) => MetricLabel.make(key, value))
  return { update: (value) => metric.unsafeUpdate(value, tags), modify: (value) => metric.unsafeModify(value, tags) }
}

const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })
const gauge = (name: string, description: string) => Metric.gauge(name, { description })

/** Seconds, from 0.5 ms to about 16 s. */
const latencyBoundaries = MetricBoundaries.exponential({ start: 0.0005, factor: 2, count: 16 })

// Projection and chain
export const projectionPhase = gauge("vault_gateway_projection_phase", "1 for the projection's current phase, 0 for the others")
export const projectionSlot = gauge("vault_gateway_projection_slot", "The chain slot the projection reflects (asOf.slot)")
export const chainTipSlot = gauge("vault_gateway_chain_tip_slot", "The newest slot the chain has reported")
export const lagSlots = gauge("vault_gateway_projection_lag_slots", "Slots between the chain tip and the projection")
export const lagSeconds = gauge(
  "vault_gateway_projection_lag_seconds",
  "Seconds between now and the block time of the slot the projection reflects, computed at scrape time"
)
export const accountUpdatesApplied = counter("vault_gateway_account_updates_applied", "Account updates applied to the projection")
export const programEventsApplied = counter("vault_gateway_program_events_applied", "Program transactions (with their events) taken from the chain")
export const notificationsRepaired = counter(
  "vault_gateway_notifications_repaired",
  "Accounts fetched again because a transaction wrote them and their notification never came"
)
export const chainReconnects = counter("vault_gateway_chain_reconnects", "Times the chain stream was interrupted and resumed")

// Persistence
export const checkpointDuration = Metric.histogram(
  "vault_gateway_checkpoint_duration_seconds",
  latencyBoundaries,
  "Time to write one checkpoint (accounts and position) to PostgreSQL"
)
export const leaderRole = gauge(
  "vault_gateway_leader",
  "1 while this instance is the leader (writes checkpoints, the history backfill and the daily rollups), 0 while it follows"
)
export const checkpointSlot = gauge("vault_gateway_checkpoint_slot", "Slot of the last checkpoint written")
export const checkpointWrittenAt = gauge("vault_gateway_checkpoint_written_seconds", "Unix time the last checkpoint was written")
export const checkpointAge = gauge("vault_gateway_checkpoint_age_seconds", "Seconds since the last checkpoint was written, at scrape time")
export const backfillDone = gauge("vault_gateway_backfill_transactions_done", "History backfill: program transactions fetched so far")
export const backfillTotal = gauge("vault_gateway_backfill_transactions_estimate", "History backfill: estimated transactions in all")
export const rollupClosedDay = gauge(
  "vault_gateway_rollup_last_closed_day_seconds",
  "Unix time (UTC midnight) of the last daily rollup day closed"
)

// HTTP
export const httpRequests = counter("vault_gateway_http_requests", "HTTP requests by route template, method and status class")
export const httpDuration = Metric.histogram(
  "vault_gateway_http_request_duration_seconds",
  latencyBoundaries,
  "HTTP request latency by route template and method"
)

// WebSocket
export const wsConnections = gauge("vault_gateway_ws_connections", "Open WebSocket connections")
export const wsSubscriptions = gauge("vault_gateway_ws_subscriptions", "Topic subscriptions across open connections")
export const wsResyncs = counter("vault_gateway_ws_resyncs", "Resync frames sent (after a client fell behind)")
export const wsCloses = counter("vault_gateway_ws_closes", "WebSocket connections closed, by close code")
export const wsFrames = counter("vault_gateway_ws_frames_published", "Update frames published to a topic's followers")

/** Close codes a client may pick are many: the label keeps the ones this service knows, others are "other". */
const KNOWN_CLOSE_CODES = new Set([1000, 1001, 1005, 1006, 1008, 1009, 1011, 4008])
const closeCounters = new Map<string, Labelled<number>>()
export const closeCounter = (code: number): Labelled<number> => {
  const label = KNOWN_CLOSE_CODES.has(code) ? String(code) : "other"
  let counter = closeCounters.get(label)
  if (counter === undefined) closeCounters.set(label, counter = labelled(wsCloses, { code: label }))
  return counter
}

// Limits and builds
export const rateLimitRefusals = counter("vault_gateway_rate_limit_refusals", "Requests refused by a rate limit, by kind")
export const builds = counter("vault_gateway_builds", "Transaction builds by kind, outcome and rejection code")
export const simulations = counter("vault_gateway_simulations", "Build preflights (simulateTransaction) by outcome")

// PostgreSQL pool and process
export const pgPoolConnections = gauge("vault_gateway_pg_pool_connections", "PostgreSQL pool connections by state (total, idle, waiting)")
export const heapUsed = gauge("vault_gateway_process_heap_used_bytes", "V8 heap in use")
export const residentMemory = gauge("vault_gateway_process_resident_memory_bytes", "Resident set size")
export const eventLoopDelay = gauge(
  "vault_gateway_process_event_loop_delay_seconds",
  "Event-loop delay since the previous scrape: stat p50, p99 or max"
)

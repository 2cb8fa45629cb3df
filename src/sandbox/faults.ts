import type { JsonValue } from "./codec/json.ts"
import { createRandom, type Random, type Seed } from "./crypto/random.ts"
import { isRecord } from "./rpc/params.ts"
import { paramError } from "./rpc/rpcError.ts"

/**
 * Injected faults, set with sandbox_fault and observed by any client:
 * - `closeSockets`: every PubSub WebSocket is closed abruptly (no close frame; clients see 1006).
 * - `dropNotifications {fraction}`: each notification is lost with that probability.
 * - `delayNotifications {ms}`: notifications leave that much later (order kept).
 * - `http429 {fraction, retryAfterSeconds}`: that fraction of HTTP JSON-RPC calls is answered
 *   429 with `Retry-After` (calls carrying a sandbox_* method are never refused, so a test can
 *   always clear the fault).
 * - `stallNotifications {onClear?: "release" | "drop"}`: notifications are held while slots go
 *   on; when the stall is cleared they are released in order (default) or dropped.
 * - `clear`: ends every fault (a stall ends as it was told to).
 * Draws use a PRNG seeded from the sandbox seed, so a run is reproducible.
 */
export interface FaultState {
  readonly dropFraction: number
  readonly delayMs: number
  readonly http429: { readonly fraction: number; readonly retryAfterSeconds: number } | undefined
  readonly stall: { readonly onClear: "release" | "drop" } | undefined
}

const NO_FAULTS: FaultState = { dropFraction: 0, delayMs: 0, http429: undefined, stall: undefined }

export interface FaultListeners {
  readonly closeSockets: () => void
  /** The stall ended: release (true) or drop (false) what it held. */
  readonly stallEnded: (release: boolean) => void
}

const readFraction = (value: unknown): number => {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) throw paramError("fraction must be a number between 0 and 1")
  return value
}

const readNonNegative = (value: unknown, name: string, fallback?: number): number => {
  if (value === undefined && fallback !== undefined) return fallback
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw paramError(`${name} must be a non-negative number`)
  return value
}

export class Faults {
  private current: FaultState = NO_FAULTS
  private readonly random: Random
  private readonly listeners: FaultListeners[] = []

  constructor(seed: Seed) {
    this.random = createRandom(seed, "faults")
  }

  get state(): FaultState {
    return this.current
  }

  listen(listeners: FaultListeners): () => void {
    this.listeners.push(listeners)
    return () => {
      const index = this.listeners.indexOf(listeners)
      if (index >= 0) this.listeners.splice(index, 1)
    }
  }

  shouldDropNotification(): boolean {
    return this.current.dropFraction > 0 && this.random.nextFloat() < this.current.dropFraction
  }

  /** Retry-After seconds when this HTTP call must be refused with 429. */
  http429RetryAfter(): number | undefined {
    const fault = this.current.http429
    return fault !== undefined && this.random.nextFloat() < fault.fraction ? fault.retryAfterSeconds : undefined
  }

  /** Applies a sandbox_fault request; returns the resulting state. */
  apply(spec: unknown): JsonValue {
    if (!isRecord(spec) || typeof spec["kind"] !== "string") throw paramError("expected {kind, ...}")
    switch (spec["kind"]) {
      case "closeSockets":
        for (const listener of this.listeners) listener.closeSockets()
        break
      case "dropNotifications":
        this.current = { ...this.current, dropFraction: readFraction(spec["fraction"]) }
        break
      case "delayNotifications":
        this.current = { ...this.current, delayMs: readNonNegative(spec["ms"], "ms") }
        break
      case "http429":
        this.current = {
          ...this.current,
          http429: { fraction: readFraction(spec["fraction"] ?? 1), retryAfterSeconds: Math.ceil(readNonNegative(spec["retryAfterSeconds"], "retryAfterSeconds", 1)) }
        }
        break
      case "stallNotifications": {
        const onClear = spec["onClear"] ?? "release"
        if (onClear !== "release" && onClear !== "drop") throw paramError("onClear must be release or drop")
        this.current = { ...this.current, stall: { onClear } }
        break
      }
      case "clear":
        this.clear()
        break
      default:
        throw paramError(`unknown fault kind: ${spec["kind"]}`)
    }
    return this.toJson()
  }

  clear(): void {
    const stall = this.current.stall
    this.current = NO_FAULTS
    if (stall !== undefined) for (const listener of this.listeners) listener.stallEnded(stall.onClear === "release")
  }

  toJson(): JsonValue {
    const { dropFraction, delayMs, http429, stall } = this.current
    return { dropFraction, delayMs, http429: http429 ?? null, stall: stall ?? null }
  }
}

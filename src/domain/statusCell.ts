import { Effect, SubscriptionRef } from "effect"
import type { ProjectionStatus } from "./status.ts"

/**
 * The projection's status, readable synchronously by hot request paths and observable as a stream
 * of changes. Only the projection's writer sets it.
 */
export class StatusCell {
  #current: ProjectionStatus

  private constructor(private readonly ref: SubscriptionRef.SubscriptionRef<ProjectionStatus>, initial: ProjectionStatus) {
    this.#current = initial
  }

  static make = (initial: ProjectionStatus) =>
    Effect.map(SubscriptionRef.make(initial), (ref) => new StatusCell(ref, initial))

  get current(): ProjectionStatus {
    return this.#current
  }

  get changes() {
    return this.ref.changes
  }

  update(f: (current: ProjectionStatus) => ProjectionStatus): Effect.Effect<void> {
    return Effect.suspend(() => {
      const next = f(this.#current)
      if (next === this.#current) return Effect.void
      this.#current = next
      return SubscriptionRef.set(this.ref, next)
    })
  }
}

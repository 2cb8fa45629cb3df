import type { Projection, ProjectionChangeBatch } from "../../../services/Projection.ts"

export type ChangeListener = (batches: ReadonlyArray<ProjectionChangeBatch>) => void

/**
 * The projection's changes handed to listeners synchronously, by the writer, right after it applied
 * them: no queue, fiber or timer between a notification and its WebSocket frames. Listeners run on
 * the writer's turn, so they must be quick and must not mutate the state.
 */
export class ChangeFeed {
  readonly #listeners = new Set<ChangeListener>()

  get listening(): boolean {
    return this.#listeners.size > 0
  }

  listen(listener: ChangeListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** The errors listeners threw (they never reach the writer). */
  emit(batches: ReadonlyArray<ProjectionChangeBatch>): Array<unknown> {
    let errors: Array<unknown> | null = null
    for (const listener of this.#listeners) {
      try {
        listener(batches)
      } catch (error) {
        ;(errors ??= []).push(error)
      }
    }
    return errors ?? NO_ERRORS
  }
}

const NO_ERRORS: Array<unknown> = []

// The `Projection` service has no synchronous subscription in its interface (services/ is not this
// layer's to change): the layers that have a feed register it against the service value they build.
const feeds = new WeakMap<object, ChangeFeed>()

export const registerChangeFeed = (projection: Projection["Type"], feed: ChangeFeed): void => {
  feeds.set(projection, feed)
}

/** The projection's synchronous change feed, null for projections without one (test doubles). */
export const changeFeedOf = (projection: Projection["Type"]): ChangeFeed | null => feeds.get(projection) ?? null

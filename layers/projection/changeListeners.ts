import type { ProjectionChangeBatch, ProjectionChangeListener } from "../../services/Projection.ts"

/**
 * The listeners of `Projection.listen`, called by the writer right after it applied the batches: no
 * queue, fiber or timer between a chain notification and its WebSocket frames.
 */
export class ChangeListeners {
  readonly #listeners = new Set<ProjectionChangeListener>()

  add(listener: ProjectionChangeListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Returns the errors listeners threw, so that none reaches the writer. */
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

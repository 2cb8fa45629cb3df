import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Duration, Effect, Layer } from "effect"
import { Projection, type ProjectionChangeBatch } from "../../../services/Projection.ts"
import { ProjectionInBackground } from "../../../layers/projection/ProjectionInBackground.ts"
import { liveStatus, ProjectionControl, ProjectionTest } from "../../../src/bench/support/projectionTest.ts"

const batch = (version: number): ProjectionChangeBatch => ({ slot: 100 + version, version, changes: [{ _tag: "VaultChanged", vault: "vault-a" }] })

describe("ProjectionInBackground", () => {
  it.scopedLive("listeners registered before ingestion is built get its changes once it is; stopped ones do not", () =>
    Effect.gen(function*() {
      const built = yield* Layer.build(ProjectionTest({ initial: liveStatus(100) }))
      const control = Context.get(built, ProjectionControl)
      const gate = yield* Deferred.make<void>()
      const ingestion = Layer.effectContext(Effect.as(Deferred.await(gate), built))
      const projection = Context.get(yield* Layer.build(ProjectionInBackground(ingestion)), Projection)

      const early: Array<number> = []
      const stoppedEarly: Array<number> = []
      const late: Array<number> = []
      const versions = (into: Array<number>) => (batches: ReadonlyArray<ProjectionChangeBatch>) => {
        for (const b of batches) into.push(b.version)
      }
      const stopEarly = projection.listen(versions(early))
      projection.listen(versions(stoppedEarly))()
      expect(projection.currentStatus().status).toBe("starting")

      yield* Deferred.succeed(gate, undefined)
      for (let i = 0; i < 200 && projection.currentStatus().status !== "live"; i++) yield* Effect.sleep(Duration.millis(5))
      expect(projection.currentStatus().status).toBe("live")
      const stopLate = projection.listen(versions(late))

      yield* control.publish(batch(1))
      stopEarly()
      yield* control.publish(batch(2))
      stopLate()
      yield* control.publish(batch(3))
      expect(early).toEqual([1])
      expect(late).toEqual([1, 2])
      expect(stoppedEarly).toEqual([])
    }))
})

import { workerData } from "node:worker_threads"
import { derivePositionSlice, type PositionSlice, WORKER_DONE, WORKER_FAILED, WORKER_STARTED } from "./bulkPdas.ts"

// Worker half of bulk genesis: derives the position PDAs of one slice into shared memory and
// reports its progress in its status slot, which the main thread waits on.
const slice = workerData as PositionSlice & { readonly status: SharedArrayBuffer; readonly slot: number }
const status = new Int32Array(slice.status)
const report = (state: number): void => {
  Atomics.store(status, slice.slot, state)
  Atomics.notify(status, slice.slot)
}
report(WORKER_STARTED)
try {
  derivePositionSlice(slice)
  report(WORKER_DONE)
} catch {
  report(WORKER_FAILED)
}

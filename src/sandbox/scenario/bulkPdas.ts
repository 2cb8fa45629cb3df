import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { join } from "node:path"
import { findProgramAddressInto } from "../../ntbundle/programAddress.ts"
import { startTsWorker } from "../../tsWorker.ts"

/**
 * UserBundleAccount PDAs for a million positions, split between the main thread and worker
 * threads (the derivation is CPU-bound: ~2 curve tests per address). Inputs and outputs live in
 * SharedArrayBuffers; the main thread derives its own slice, then blocks until the workers are
 * done, so callers stay synchronous. Without worker support (no tsx loader) everything runs on
 * the main thread.
 */
export interface PositionSlice {
  /** 32 bytes per position. */
  readonly owners: SharedArrayBuffer
  /** Per position, the index of its vault in `vaults`. */
  readonly vaultOf: SharedArrayBuffer
  /** 32 bytes per vault. */
  readonly vaults: Uint8Array
  readonly program: Uint8Array
  /** Output: 32 address bytes per position. */
  readonly addresses: SharedArrayBuffer
  readonly start: number
  readonly end: number
}

const USER_BUNDLE_SEED = new TextEncoder().encode("USER_BUNDLE")

export const derivePositionSlice = (slice: PositionSlice): void => {
  const owners = new Uint8Array(slice.owners)
  const vaultOf = new Uint32Array(slice.vaultOf)
  const addresses = new Uint8Array(slice.addresses)
  for (let index = slice.start; index < slice.end; index++) {
    const vault = vaultOf[index]!
    findProgramAddressInto(
      [USER_BUNDLE_SEED, owners.subarray(index * 32, index * 32 + 32), slice.vaults.subarray(vault * 32, vault * 32 + 32)],
      slice.program,
      addresses.subarray(index * 32, index * 32 + 32)
    )
  }
}

export const WORKER_STARTED = 1
export const WORKER_DONE = 2
export const WORKER_FAILED = 3
const STARTUP_BUDGET_MS = 20_000
const COMPUTE_BUDGET_MS = 600_000

const startWorker = (slice: PositionSlice, status: SharedArrayBuffer, slot: number): boolean => {
  try {
    const worker = startTsWorker(new URL("./bulkWorker.ts", import.meta.url), { workerData: { ...slice, status, slot } })
    worker.on("error", () => Atomics.store(new Int32Array(status), slot, WORKER_FAILED))
    worker.unref()
    return true
  } catch {
    return false
  }
}

/** Blocks until the worker's status leaves `state` or the time is up; returns the status. */
const waitWhile = (status: Int32Array, slot: number, state: number, budgetMs: number): number => {
  const deadline = Date.now() + budgetMs
  while (Atomics.load(status, slot) === state && Date.now() < deadline) Atomics.wait(status, slot, state, 50)
  return Atomics.load(status, slot)
}

export const derivePositions = (input: Omit<PositionSlice, "start" | "end"> & { readonly count: number }): { readonly workers: number } => {
  const threads = Math.max(1, Math.min(availableParallelism(), 8))
  const per = Math.ceil(input.count / threads)
  const status = new SharedArrayBuffer(4 * threads)
  const states = new Int32Array(status)
  const slices = Array.from({ length: threads }, (_, thread) => ({ ...input, start: Math.min(input.count, thread * per), end: Math.min(input.count, (thread + 1) * per) }))
  const started = slices.map((slice, thread) => thread > 0 && slice.end > slice.start && startWorker(slice, status, thread))
  derivePositionSlice(slices[0]!)
  let workers = 0
  for (let thread = 1; thread < threads; thread++) {
    const slice = slices[thread]!
    if (slice.end <= slice.start) continue
    if (!started[thread]) {
      derivePositionSlice(slice)
      continue
    }
    // A worker that never starts (no loader) or fails leaves its slice to the main thread; a late
    // worker writing the same bytes afterwards is harmless.
    let state = waitWhile(states, thread, 0, STARTUP_BUDGET_MS)
    if (state === WORKER_STARTED) state = waitWhile(states, thread, WORKER_STARTED, COMPUTE_BUDGET_MS)
    if (state === WORKER_DONE) workers++
    else derivePositionSlice(slice)
  }
  return { workers }
}

/**
 * `derivePositions` with a file cache: the addresses depend only on the inputs (owners, vaults,
 * program), so a benchmark that restarts the same bulk scenario reads them back instead of
 * deriving a million PDAs again. The cache key is a hash of every input byte.
 */
export const derivePositionsCached = (
  input: Omit<PositionSlice, "start" | "end"> & { readonly count: number },
  cacheDirectory: string | undefined
): { readonly workers: number; readonly cached: boolean } => {
  if (cacheDirectory === undefined) return { ...derivePositions(input), cached: false }
  const key = createHash("sha256")
    .update(new Uint8Array(input.owners))
    .update(new Uint8Array(input.vaultOf))
    .update(input.vaults)
    .update(input.program)
    .digest("hex")
  const file = join(cacheDirectory, `vault-gateway-bulk-positions-${key.slice(0, 32)}.bin`)
  const target = new Uint8Array(input.addresses)
  try {
    const stored = readFileSync(file)
    if (stored.length === target.length) {
      target.set(stored)
      return { workers: 0, cached: true }
    }
  } catch {
    // not cached yet
  }
  const result = derivePositions(input)
  try {
    mkdirSync(cacheDirectory, { recursive: true })
    writeFileSync(file, target)
  } catch {
    // a cache that cannot be written only costs the next run its speed
  }
  return { ...result, cached: false }
}

/**
 * Milliseconds one fixed single-threaded loop takes. On a shared virtual machine the host's load
 * changes how fast the same work runs (this loop has measured 1.5 s and 2.7 s minutes apart), so a
 * wall-clock figure is read next to this: measured before and after a run, it tells whether the
 * machine itself was slow at the time.
 */
export const referenceLoopMs = (): number => {
  const started = performance.now()
  let mixed = 0
  for (let i = 0; i < 30_000_000; i++) mixed = (mixed * 31 + i) % 1_000_003
  // the result is used, so the loop cannot be optimized away
  if (mixed < 0) throw new Error("unreachable")
  return Math.round(performance.now() - started)
}

/** A value some event left behind, and the value it started from (null when the event does not say). */
export interface ValueReport {
  readonly before: bigint | null
  readonly after: bigint
}

/**
 * The events of one slot are stored without their order inside the slot, but each one that moves
 * a running value reports where it left it, and often where it found it: the real last one is the
 * report no other report started from. Null when that does not single one out.
 */
export const chainEnd = (reports: ReadonlyArray<ValueReport>): bigint | null => {
  const ends = reports.filter((report, index) => !reports.some((other, at) => at !== index && other.before === report.after))
  return ends.length === 1 ? ends[0]!.after : null
}

/**
 * Legacy flags of a daily referrer row (spec §2.6: "historical or reconstructed rows can carry legacy
 * flags; downstream reporting preserves them"). Stored as a bit set; a row's flags only ever gain
 * bits (writes OR them into what is stored), so later processing never clears one.
 */
export const LegacyFlag = {
  /** The day began before the gateway was live: its row was rebuilt from the event log (e.g. the backfill). */
  reconstructed: 1,
  /**
   * A bound user's event that day carried `referred_net_deposits_after: None`: the program did not
   * track the counter for it, so the closing counter may not include that movement.
   */
  referredNetDepositsUntracked: 2
} as const
export type LegacyFlagName = keyof typeof LegacyFlag

const NAMES = Object.keys(LegacyFlag) as ReadonlyArray<LegacyFlagName>

/** The names of the bits set in `flags`, in a fixed order. */
export const legacyFlagNames = (flags: number): Array<LegacyFlagName> => NAMES.filter((name) => (flags & LegacyFlag[name]) !== 0)

import type { ProjectionState } from "../projection/state.ts"

export interface CohortMember {
  /** The UserBundleAccount (position) address: the page order and keyset. */
  readonly position: string
  readonly vault: string
}

/**
 * One page of a referrer's bound positions, by position address ascending, strictly after `after`.
 * Each (referrer, vault) cohort is a sorted index the projection keeps up to date; the page merges
 * the referrer's cohorts (one vault or all of them) from the cursor on: O(vaults x (log n + page)),
 * never a visit, let alone a sort, of the whole cohort.
 */
export const cohortPage = (
  state: ProjectionState,
  referrer: string,
  options: { readonly vault: string | null; readonly after: string | null; readonly limit: number }
): { readonly members: ReadonlyArray<CohortMember>; readonly more: boolean } => {
  const heads: Array<{ vault: string; next: Iterator<string>; position: string }> = []
  for (const [vault, cohort] of state.cohorts.entries(referrer)) {
    if (options.vault !== null && vault !== options.vault) continue
    const next = cohort.positions.after(options.after)
    const first = next.next()
    if (first.done !== true) heads.push({ vault, next, position: first.value })
  }
  const members: Array<CohortMember> = []
  while (heads.length > 0 && members.length <= options.limit) {
    let least = 0
    for (let i = 1; i < heads.length; i++) if (heads[i]!.position < heads[least]!.position) least = i
    const head = heads[least]!
    members.push({ position: head.position, vault: head.vault })
    const following = head.next.next()
    if (following.done === true) heads.splice(least, 1)
    else head.position = following.value
  }
  return { members: members.slice(0, options.limit), more: members.length > options.limit }
}

import type { ProjectionState } from "../projection/state.ts"

export interface CohortMember {
  /** The UserBundleAccount (position) address: the page order and keyset. */
  readonly position: string
  readonly vault: string
}

/**
 * One page of a builder's bound positions, by position address ascending, strictly after `after`.
 * Reads the builder's cohorts (one vault or all of them); a page costs O(cohort) to select and
 * O(page) to sort once filtered to what follows the cursor.
 */
export const cohortPage = (
  state: ProjectionState,
  builder: string,
  options: { readonly vault: string | null; readonly after: string | null; readonly limit: number }
): { readonly members: ReadonlyArray<CohortMember>; readonly more: boolean } => {
  const candidates: Array<CohortMember> = []
  for (const [vault, cohort] of state.cohorts.entries(builder)) {
    if (options.vault !== null && vault !== options.vault) continue
    for (const position of cohort.users) {
      if (options.after === null || position > options.after) candidates.push({ position, vault })
    }
  }
  candidates.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
  return { members: candidates.slice(0, options.limit), more: candidates.length > options.limit }
}

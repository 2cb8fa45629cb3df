/**
 * Cuts a page of date-ordered rows so that no date is split across two pages (spec §4.3):
 * `rows` holds up to `limit + 1` rows in order. A date that continues past the limit moves whole to
 * the next page; when that date alone fills more than the page, `wholeDate` names it and the
 * caller serves all of its rows as one page.
 */
export const cutAtDate = <A extends { readonly date: string }>(
  rows: ReadonlyArray<A>,
  limit: number
): { readonly page: ReadonlyArray<A>; readonly more: boolean; readonly wholeDate: string | null } => {
  if (rows.length <= limit) return { page: rows, more: false, wholeDate: null }
  const boundary = rows[limit]!.date
  const page = rows.slice(0, limit).filter((row) => row.date !== boundary)
  return page.length > 0 ? { page, more: true, wholeDate: null } : { page: [], more: true, wholeDate: boundary }
}

const DAY_MS = 86_400_000

export interface UsageCount {
  readonly keyId: string
  readonly day: string
  readonly requests: number
}

/**
 * The last `days` UTC days up to the one holding `nowMillis` (oldest first, `YYYY-MM-DD`), and
 * `align`, which lays each key's counts out over them (0 for a day without requests).
 */
export const usageByKey = (nowMillis: number, days: number) => {
  const today = Math.floor(nowMillis / DAY_MS) * DAY_MS
  const list: Array<string> = []
  for (let i = days - 1; i >= 0; i--) list.push(new Date(today - i * DAY_MS).toISOString().slice(0, 10))
  const index = new Map(list.map((day, i) => [day, i]))
  return {
    days: list,
    align: (keys: ReadonlyArray<{ readonly id: string; readonly name: string }>, counts: ReadonlyArray<UsageCount>) => {
      const rows = new Map(keys.map((key) => [key.id, { keyId: key.id, name: key.name, requests: list.map(() => 0) }]))
      for (const count of counts) {
        const at = index.get(count.day)
        const row = rows.get(count.keyId)
        if (at !== undefined && row !== undefined) row.requests[at] = count.requests
      }
      return [...rows.values()]
    }
  }
}

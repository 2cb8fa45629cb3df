const DAY_SECONDS = 86_400

/** The UTC calendar date `YYYY-MM-DD` of a unix time (seconds). */
export const utcDayOf = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().slice(0, 10)

// The replay asks for the same day's bounds at every event: the last answer is kept.
let lastDate: string | null = null
let lastStart = 0

/** Unix seconds of `date`'s 00:00 UTC. */
export const utcDayStart = (date: string): number => {
  if (date !== lastDate) {
    lastStart = Date.parse(`${date}T00:00:00Z`) / 1000
    lastDate = date
  }
  return lastStart
}

/** Unix seconds of the midnight that ends `date` (the next day's 00:00 UTC). */
export const utcDayEnd = (date: string): number => utcDayStart(date) + DAY_SECONDS

export const addUtcDays = (date: string, days: number): string => utcDayOf(utcDayStart(date) + days * DAY_SECONDS)

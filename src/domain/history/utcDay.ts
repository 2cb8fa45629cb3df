const DAY_SECONDS = 86_400

/** The UTC calendar date `YYYY-MM-DD` of a unix time (seconds). */
export const utcDayOf = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().slice(0, 10)

/** Unix seconds of `date`'s 00:00 UTC. */
export const utcDayStart = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 1000

/** Unix seconds of the midnight that ends `date` (the next day's 00:00 UTC). */
export const utcDayEnd = (date: string): number => utcDayStart(date) + DAY_SECONDS

export const addUtcDays = (date: string, days: number): string => utcDayOf(utcDayStart(date) + days * DAY_SECONDS)

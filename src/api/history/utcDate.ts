import { Schema } from "effect"

const DAY_MS = 86_400_000

/** True for a `YYYY-MM-DD` that is a real calendar date (no 2026-02-30, no month 13). */
export const isUtcDate = (value: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const ms = Date.parse(`${value}T00:00:00Z`)
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value)
}

/** A UTC calendar date `YYYY-MM-DD` that exists. */
export const UtcDate = Schema.String.pipe(
  Schema.filter(isUtcDate, {
    message: () => "expected a UTC date YYYY-MM-DD"
  })
).annotations({ identifier: "UtcDate", description: "UTC calendar date, YYYY-MM-DD", examples: ["2026-09-01"] })

export const utcDateOf = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().slice(0, 10)

export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)

/** The last completed UTC day at chain time `blockTime` (the wall clock when the chain time is unknown). */
export const lastCompletedDay = (blockTime: number | null): string =>
  addDays(utcDateOf(blockTime ?? Math.floor(Date.now() / 1000)), -1)

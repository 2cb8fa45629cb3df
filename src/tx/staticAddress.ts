import { addressBytesOf } from "../ntbundle/addressBytes.ts"
import { GenerationalCache } from "../generationalCache.ts"

/** What compiling needs to know about one account address: its 32 bytes and where it sorts. */
export interface StaticAddress {
  /** Shared between builds: never mutate. */
  readonly bytes: Uint8Array
  /** Orders like kit's address comparator when compared with `<` (see `kitSortKey`). */
  readonly sortKey: string
}

/**
 * Kit orders accounts of the same role with `Intl.Collator("en", {caseFirst: "lower", sensitivity:
 * "variant"})`. On base58 text (ASCII digits and letters only) that collation compares the
 * case-folded strings first (digits before letters), and only when those are equal decides by the
 * first position whose case differs, lower case first. The key below encodes exactly that, so a
 * plain string comparison reproduces kit's order without calling the collator.
 */
export const kitSortKey = (address: string): string => {
  const folded = address.toLowerCase()
  let caseMask = ""
  for (let i = 0; i < address.length; i++) caseMask += address.charCodeAt(i) === folded.charCodeAt(i) ? "a" : "b"
  // \u0001 sorts below every base58 character, so a folded prefix still sorts first.
  return `${folded}\u0001${caseMask}`
}

export class InvalidAddress extends Error {
  constructor(readonly address: string) {
    super(`not a base58 32-byte address: "${address.slice(0, 60)}"`)
  }
}

const cache = new GenerationalCache<string, StaticAddress>(100_000)

/**
 * The cached bytes and sort key of an address (base58 decoding is the expensive part of compiling
 * a message). Throws InvalidAddress on text that is not a 32-byte base58 value.
 */
export const staticAddress = (address: string): StaticAddress => {
  const cached = cache.get(address)
  if (cached !== undefined) return cached
  const bytes = addressBytesOf(address)
  if (bytes === null) throw new InvalidAddress(address)
  const entry: StaticAddress = { bytes, sortKey: kitSortKey(address) }
  cache.set(address, entry)
  return entry
}

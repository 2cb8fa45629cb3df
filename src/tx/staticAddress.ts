// The order kit gives account addresses of the same role in a compiled message.

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

/**
 * Kit's address order (see `kitSortKey`) decided on the two strings directly, without building
 * keys: case-folded characters first, then a shorter prefix first, then the first position whose
 * case differs, lower case first. For base58 text (ASCII letters and digits).
 */
export const compareKitOrder = (left: string, right: string): number => {
  if (left === right) return 0
  const length = Math.min(left.length, right.length)
  let byCase = 0
  for (let index = 0; index < length; index++) {
    const l = left.charCodeAt(index)
    const r = right.charCodeAt(index)
    if (l === r) continue
    const foldedL = l >= 65 && l <= 90 ? l + 32 : l
    const foldedR = r >= 65 && r <= 90 ? r + 32 : r
    if (foldedL !== foldedR) return foldedL < foldedR ? -1 : 1
    // same letter, different case: the lower-case one (the higher code) sorts first
    if (byCase === 0) byCase = l > r ? -1 : 1
  }
  if (left.length !== right.length) return left.length < right.length ? -1 : 1
  return byCase
}

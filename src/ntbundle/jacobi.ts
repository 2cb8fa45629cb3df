// The Jacobi symbol (a / p) for p = 2^255 − 19 without BigInt: a binary algorithm on the pair
// (f, g), f odd, that only ever uses three moves, each of which keeps (g / f) up to a tracked sign:
//   - g ← g / 2^z: (2 / f) = −1 when f ≡ 3, 5 (mod 8), so the sign flips for odd z;
//   - swap f and g when both are odd: quadratic reciprocity flips it when f ≡ g ≡ 3 (mod 4);
//   - g ← g + w·f (w ≥ 0): (g / f) depends on g mod f only.
// When f or g reaches 1 the symbol is the tracked sign. Which move to make depends only on the low
// bits of f and g and on `eta` (an estimate of bitlen(g) − bitlen(f)), so 24 moves at a time are
// planned on the low 32 bits alone and their combined effect, a 2×2 matrix of non-negative
// entries ≤ 2^24, is applied to the full numbers once (an exact division by 2^24, i.e. dropping a
// limb). Full numbers are eleven 24-bit limbs in doubles: products stay below 2^53.
// Termination is empirical (a few dozen rounds for 255-bit inputs); past a bound the answer comes
// from Euler's criterion on BigInt, which the tests also force.

const STEPS = 24
const LIMB = 2 ** STEPS
const LIMBS = 11
const INVERSE_LIMB = 1 / LIMB
const MAX_ROUNDS = 200
const CANCEL_BITS = 6
const FIELD_LIMBS = 16

const P = 2n ** 255n - 19n

const P_LIMBS = Float64Array.from({ length: LIMBS }, (_, index) => Number((P >> BigInt(STEPS * index)) % BigInt(LIMB)))
const fLimbs = new Float64Array(LIMBS)
const gLimbs = new Float64Array(LIMBS)
const fNext = new Float64Array(LIMBS)
const gNext = new Float64Array(LIMBS)

/**
 * outF = (u·f + v·g) / 2^STEPS and outG = (q·f + r·g) / 2^STEPS over `length` limbs, in one pass
 * (exact: the low limbs sum to 0 mod 2^24).
 */
const combine = (
  outF: Float64Array,
  outG: Float64Array,
  f: Float64Array,
  g: Float64Array,
  u: number,
  v: number,
  q: number,
  r: number,
  length: number
): void => {
  let f0 = f[0]!
  let g0 = g[0]!
  let carryF = (u * f0 + v * g0) * INVERSE_LIMB
  let carryG = (q * f0 + r * g0) * INVERSE_LIMB
  for (let index = 1; index < length; index++) {
    f0 = f[index]!
    g0 = g[index]!
    const sumF = carryF + u * f0 + v * g0
    const sumG = carryG + q * f0 + r * g0
    carryF = Math.floor(sumF * INVERSE_LIMB)
    carryG = Math.floor(sumG * INVERSE_LIMB)
    outF[index - 1] = sumF - carryF * LIMB
    outG[index - 1] = sumG - carryG * LIMB
  }
  outF[length - 1] = carryF
  outG[length - 1] = carryG
}

const isOne = (limbs: Float64Array, length: number): boolean => {
  if (limbs[0] !== 1) return false
  for (let index = 1; index < length; index++) if (limbs[index] !== 0) return false
  return true
}

const lowWord = (limbs: Float64Array, length: number): number => (length > 1 ? limbs[0]! + limbs[1]! * LIMB : limbs[0]!) | 0

/** 16-bit limbs (least significant first) into 24-bit limbs. */
const loadField = (out: Float64Array, field: Float64Array): void => {
  for (let index = 0; index < 5; index++) {
    const a = field[3 * index]!
    const b = field[3 * index + 1]!
    const c = field[3 * index + 2]!
    out[2 * index] = a + (b % 256) * 65536
    out[2 * index + 1] = Math.floor(b / 256) + c * 256
  }
  out[10] = field[15]!
}

const toBigInt = (field: Float64Array): bigint => {
  let value = 0n
  for (let index = FIELD_LIMBS - 1; index >= 0; index--) value = (value << 16n) | BigInt(field[index]!)
  return value
}

/** Euler's criterion a^((p−1)/2) mod p: 1, p − 1 (−1) or 0. */
const eulerCriterion = (a: bigint): number => {
  let result = 1n
  let base = a % P
  let exponent = (P - 1n) / 2n
  while (exponent > 0n) {
    if ((exponent & 1n) === 1n) result = (result * base) % P
    base = (base * base) % P
    exponent >>= 1n
  }
  return result === 1n ? 1 : result === 0n ? 0 : -1
}

/**
 * (a / p) for a field element given as sixteen 16-bit limbs in [0, p): 1 for a non-zero square,
 * −1 for a non-square, 0 for zero. `maxRounds` only exists so tests can reach the fallback.
 */
export const jacobiOfField = (a: Float64Array, maxRounds: number = MAX_ROUNDS): number => {
  let f = fLimbs
  let g = gLimbs
  let nextF = fNext
  let nextG = gNext
  f.set(P_LIMBS)
  loadField(g, a)
  let length = LIMBS
  while (length > 1 && g[length - 1] === 0 && f[length - 1] === 0) length--
  if (length === 1 && g[0] === 0) return 0
  let eta = -1
  let sign = 0 // 1 when the symbol's sign is flipped
  for (let round = 0; round < maxRounds; round++) {
    if (isOne(f, length) || isOne(g, length)) return sign === 0 ? 1 : -1
    // Plan STEPS halvings on the low words: afterwards 2^STEPS·f' = u·f + v·g and
    // 2^STEPS·g' = q·f + r·g. Only the low 32 − (halvings so far) bits of the words stay exact,
    // which always covers what a decision needs.
    let fl = lowWord(f, length)
    let gl = lowWord(g, length)
    let u = 1
    let v = 0
    let q = 0
    let r = 1
    let remaining = STEPS
    for (;;) {
      // The sentinel bit stops the count of zeros at the steps still left in this round.
      const bits = gl | (1 << remaining)
      const zeros = 31 - Math.clz32(bits & -bits)
      gl >>>= zeros
      const scale = 1 << zeros
      u *= scale
      v *= scale
      eta -= zeros
      remaining -= zeros
      sign ^= zeros & ((fl >>> 1) ^ (fl >>> 2)) & 1
      if (remaining === 0) break
      if (eta < 0) {
        eta = -eta
        const oldF = fl
        fl = gl
        gl = oldF
        const oldU = u
        u = q
        q = oldU
        const oldV = v
        v = r
        r = oldV
        sign ^= ((fl & gl) >>> 1) & 1
      }
      // Cancel the low `cancel` bits of g with w·f, w = −g/f mod 2^cancel (f^-1 = f·(2 − f²) mod 64).
      let cancel = remaining < CANCEL_BITS ? remaining : CANCEL_BITS
      if (eta + 1 < cancel) cancel = eta + 1
      const w = Math.imul(Math.imul(fl, gl), Math.imul(fl, fl) - 2) & ((1 << cancel) - 1)
      gl = (gl + Math.imul(fl, w)) | 0
      q += u * w
      r += v * w
    }
    combine(nextF, nextG, f, g, u, v, q, r, length)
    const oldF = f
    f = nextF
    nextF = oldF
    const oldG = g
    g = nextG
    nextG = oldG
    while (length > 1 && f[length - 1] === 0 && g[length - 1] === 0) length--
  }
  return eulerCriterion(toBigInt(a))
}

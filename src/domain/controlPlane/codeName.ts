/**
 * Builder codes an organization claims: 3 to 32 characters of `A-Z a-z 0-9 _ -`, starting with a
 * letter or digit. Stored as typed, matched without regard to case.
 */
export const CLAIMABLE_CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{2,31}$/

export const CODE_RULE = "3 to 32 characters of A-Z, a-z, 0-9, '_' and '-', starting with a letter or digit"

/** Codes an organization may hold (enabled or disabled). */
export const MAX_CODES_PER_ORGANIZATION = 20
/** Active keys an organization may hold. */
export const MAX_ACTIVE_KEYS_PER_ORGANIZATION = 20

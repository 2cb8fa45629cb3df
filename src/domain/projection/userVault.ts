import { hash } from "node:crypto"

const SEED = Buffer.from("USER_BUNDLE")
const MARKER = Buffer.from("ProgramDerivedAddress")
// Bumps tried per vault: the real bump is 255 - k with probability 2^-(k+1), so 32 levels miss one
// account in four billion; such an account stays unresolved (logged), never guessed.
const BUMP_LEVELS = 32

/**
 * UserBundleAccount has no vault field: its vault is whichever Bundle B makes the account's address
 * the PDA USER_BUNDLE(owner, B). Equality of the hash with the address proves the match, so no
 * on-curve check is needed; trying the likeliest bumps of every vault first finds the match in
 * about two hashes per vault.
 */
export const findUserVault = (
  program: Uint8Array,
  owner: Uint8Array,
  account: Uint8Array,
  vaults: ReadonlyArray<Uint8Array>
): number => {
  const input = Buffer.alloc(SEED.length + 32 + 32 + 1 + 32 + MARKER.length)
  SEED.copy(input, 0)
  input.set(owner, SEED.length)
  const vaultAt = SEED.length + 32
  const bumpAt = vaultAt + 32
  input.set(program, bumpAt + 1)
  MARKER.copy(input, bumpAt + 33)
  const target = Buffer.from(account.buffer, account.byteOffset, account.byteLength)
  for (let level = 0; level < BUMP_LEVELS; level++) {
    input[bumpAt] = 255 - level
    for (let v = 0; v < vaults.length; v++) {
      input.set(vaults[v]!, vaultAt)
      if (target.equals(hash("sha256", input, "buffer"))) return v
    }
  }
  return -1
}

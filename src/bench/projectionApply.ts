import { type Address, getAddressDecoder } from "@solana/kit"
import { randomBytes } from "node:crypto"
import { decodeAccount, encodeAccount } from "../ntbundle/accounts.ts"
import { blankBundle, blankUserBundleAccount } from "../ntbundle/blankAccounts.ts"
import { findUserBundlePda } from "../ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../ntbundle/programs.ts"
import type { AccountUpdate } from "../domain/projection/accountUpdate.ts"
import { ProjectionState } from "../domain/projection/state.ts"

/**
 * Apply rate of the projection (decode + reduce + index) against a loop that only decodes the
 * same recorded updates, measured side by side. "Steady" updates change accounts the projection
 * already holds (the live case); "first sight" ones include deriving a new position's vault.
 */
const VAULTS = 13
const USERS = 50_000
const UPDATES = 200_000

const randomAddress = (): Address => getAddressDecoder().decode(randomBytes(32))

const timeIt = (run: () => void): number => {
  const started = process.hrtime.bigint()
  run()
  return Number(process.hrtime.bigint() - started) / 1e9
}

export const run = async (): Promise<Record<string, number>> => {
  const program = NTBUNDLE_PROGRAM_ID
  const vaults = Array.from({ length: VAULTS }, randomAddress)
  const builders = Array.from({ length: 20 }, randomAddress)
  const positions = Array.from({ length: USERS }, (_, i) => {
    const owner = randomAddress()
    const vault = vaults[i % VAULTS]!
    return { owner, vault, address: findUserBundlePda(program, owner, vault)[0], referrer: i % 3 === 0 ? builders[i % 20]! : null }
  })
  const userUpdate = (i: number, slot: number): AccountUpdate => {
    const p = positions[i % USERS]!
    const data = encodeAccount({
      type: "UserBundleAccount",
      data: blankUserBundleAccount(p.owner, { shares: BigInt(1_000 + ((i * 7919) % 1_000_000)), ...(p.referrer ? { referrer: p.referrer } : {}) })
    })
    return { address: p.address, owner: program, slot, data }
  }
  const firstSight = positions.map((_, i) => userUpdate(i, 1))
  const steady = Array.from({ length: UPDATES }, (_, i) => userUpdate(i * 13, 2 + Math.floor(i / 1000)))

  const decodeOnly = (updates: ReadonlyArray<AccountUpdate>) => () => {
    for (const update of updates) decodeAccount(update.data)
  }
  const fresh = () => {
    const state = new ProjectionState(program)
    vaults.forEach((vault) => state.apply({ address: vault, owner: program, slot: 0, data: encodeAccount({ type: "Bundle", data: blankBundle() }) }))
    return state
  }

  // Warm up the JIT on both paths before measuring.
  decodeOnly(steady.slice(0, 20_000))()
  const warm = fresh()
  firstSight.slice(0, 5_000).forEach((u) => warm.apply(u))

  const firstState = fresh()
  const firstDecode = timeIt(decodeOnly(firstSight))
  const firstApply = timeIt(() => firstSight.forEach((u) => firstState.apply(u)))
  const steadyDecode = timeIt(decodeOnly(steady))
  const steadyApply = timeIt(() => steady.forEach((u) => firstState.apply(u)))

  return {
    "steady updates/s, decode only": Math.round(UPDATES / steadyDecode),
    "steady updates/s, projection apply": Math.round(UPDATES / steadyApply),
    "steady ratio apply/decode (target >= 0.5)": Number((steadyDecode / steadyApply).toFixed(2)),
    "first-sight updates/s, decode only": Math.round(USERS / firstDecode),
    "first-sight updates/s, projection apply (derives vault)": Math.round(USERS / firstApply),
    "first-sight ratio apply/decode": Number((firstDecode / firstApply).toFixed(2))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run())

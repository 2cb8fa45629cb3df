import { type Address, getAddressDecoder } from "@solana/kit"
import { createHash, randomBytes } from "node:crypto"
import { encodeAccount } from "../ntbundle/accounts.ts"
import { blankBundle, blankUserBundleAccount } from "../ntbundle/blankAccounts.ts"
import { findUserBundlePda } from "../ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../ntbundle/programs.ts"
import type { AccountUpdate } from "../domain/projection/accountUpdate.ts"
import { ProjectionState } from "../domain/projection/state.ts"
import { PlainPositionIndex } from "./support/plainPositionIndex.ts"

/**
 * Apply rate of the projection (ProjectionState.apply) against the cheapest plain path to the same
 * projected state, same updates, side by side. The baseline (support/plainPositionIndex.ts) reads
 * only the fields the projection reads (owner, shares, referrer at the generated layout offsets),
 * derives a new position's vault with the same PDA search, and keeps the same indexes in plain Maps
 * and Sets: no change lists, no version, no raw-account records. Both must end in the same state
 * (positions with vault, owner, builder and shares; positions per owner; owners holding shares;
 * cohorts with members and share sums; builders per vault), compared by a digest after each phase;
 * the run fails otherwise. "Steady" updates change positions already held (the live case); "first
 * sight" ones include deriving each new position's vault.
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

/** What a read can see of the position indexes, as sorted lines hashed into one digest. */
interface IndexedState {
  readonly positions: Iterable<readonly [string, { readonly vault: string | null; readonly owner: string; readonly referrer: string | null; readonly shares: bigint }]>
  readonly positionsOf: (owner: string) => Iterable<string>
  readonly ownerCount: number
  readonly activeOwners: ReadonlyMap<string, number>
  readonly cohorts: Iterable<readonly [string, string, Iterable<string>, bigint]>
  readonly buildersIn: (vault: string) => Iterable<string>
}

interface StateFigures {
  readonly digest: string
  readonly positions: number
  readonly activeOwners: number
  readonly cohorts: number
  readonly cohortShares: bigint
}

const figuresOf = (state: IndexedState, vaults: ReadonlyArray<string>): StateFigures => {
  const lines: Array<string> = []
  const owners = new Set<string>()
  let positions = 0
  for (const [address, p] of state.positions) {
    positions++
    owners.add(p.owner)
    lines.push(`p ${address} ${p.vault} ${p.owner} ${p.referrer} ${p.shares}`)
  }
  for (const owner of owners) lines.push(`o ${owner} ${[...state.positionsOf(owner)].sort().join(",")}`)
  lines.push(`owners ${state.ownerCount}`)
  for (const [owner, count] of state.activeOwners) lines.push(`a ${owner} ${count}`)
  let cohorts = 0
  let cohortShares = 0n
  for (const [builder, vault, members, shares] of state.cohorts) {
    cohorts++
    cohortShares += shares
    lines.push(`c ${builder} ${vault} ${shares} ${[...members].sort().join(",")}`)
  }
  for (const vault of vaults) lines.push(`v ${vault} ${[...state.buildersIn(vault)].sort().join(",")}`)
  const digest = createHash("sha256").update(lines.sort().join("\n")).digest("hex")
  return { digest, positions, activeOwners: state.activeOwners.size, cohorts, cohortShares }
}

const projectionView = (state: ProjectionState): IndexedState => ({
  positions: state.users,
  positionsOf: (owner) => state.positionsByOwner.get(owner),
  ownerCount: state.positionsByOwner.size,
  activeOwners: state.activeOwners,
  cohorts: (function* () {
    for (const builder of state.cohorts.outerKeys()) {
      for (const [vault, cohort] of state.cohorts.entries(builder)) yield [builder, vault, cohort.positions, cohort.shares] as const
    }
  })(),
  buildersIn: (vault) => state.referrersByVault.get(vault)
})

const plainView = (index: PlainPositionIndex): IndexedState => ({
  positions: index.positions,
  positionsOf: (owner) => index.positionsByOwner.get(owner) ?? [],
  ownerCount: index.positionsByOwner.size,
  activeOwners: index.activeOwners,
  cohorts: (function* () {
    for (const [builder, byVault] of index.cohorts) {
      for (const [vault, cohort] of byVault) yield [builder, vault, cohort.positions, cohort.shares] as const
    }
  })(),
  buildersIn: (vault) => index.referrersByVault.get(vault) ?? []
})

const sameState = (phase: string, projection: ProjectionState, plain: PlainPositionIndex, vaults: ReadonlyArray<string>) => {
  const a = figuresOf(projectionView(projection), vaults)
  const b = figuresOf(plainView(plain), vaults)
  if (a.digest !== b.digest) {
    throw new Error(`projectionApply: the projection and the baseline disagree after ${phase}: ${JSON.stringify({ projection: { ...a, cohortShares: `${a.cohortShares}` }, baseline: { ...b, cohortShares: `${b.cohortShares}` } })}`)
  }
  return a
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
    // Every seventh update empties the position, so owners move in and out of the active count.
    const shares = (i * 7919) % 7 === 0 ? 0n : BigInt(1_000 + ((i * 7919) % 1_000_000))
    const data = encodeAccount({
      type: "UserBundleAccount",
      data: blankUserBundleAccount(p.owner, { shares, ...(p.referrer ? { referrer: p.referrer } : {}) })
    })
    return { address: p.address, owner: program, slot, data }
  }
  const firstSight = positions.map((_, i) => userUpdate(i, 1))
  const steady = Array.from({ length: UPDATES }, (_, i) => userUpdate(i * 13, 2 + Math.floor(i / 1000)))

  const freshProjection = () => {
    const state = new ProjectionState(program)
    vaults.forEach((vault) => state.apply({ address: vault, owner: program, slot: 0, data: encodeAccount({ type: "Bundle", data: blankBundle() }) }))
    return state
  }
  const freshPlain = () => new PlainPositionIndex(program, vaults)

  // Warm up the JIT on both paths before measuring.
  const warmProjection = freshProjection()
  const warmPlain = freshPlain()
  for (const u of firstSight.slice(0, 5_000)) {
    warmProjection.apply(u)
    warmPlain.apply(u)
  }
  for (const u of steady.slice(0, 20_000)) {
    warmProjection.apply(u)
    warmPlain.apply(u)
  }

  const projection = freshProjection()
  const plain = freshPlain()
  const firstPlain = timeIt(() => firstSight.forEach((u) => plain.apply(u)))
  const firstApply = timeIt(() => firstSight.forEach((u) => projection.apply(u)))
  sameState("first sight", projection, plain, vaults)
  const steadyPlain = timeIt(() => steady.forEach((u) => plain.apply(u)))
  const steadyApply = timeIt(() => steady.forEach((u) => projection.apply(u)))
  const end = sameState("the steady updates", projection, plain, vaults)

  return {
    "steady updates/s, plain index baseline": Math.round(UPDATES / steadyPlain),
    "steady updates/s, projection apply": Math.round(UPDATES / steadyApply),
    "steady ratio apply/plain (target >= 0.5)": Number((steadyPlain / steadyApply).toFixed(2)),
    "first-sight updates/s, plain index baseline (derives vault)": Math.round(USERS / firstPlain),
    "first-sight updates/s, projection apply (derives vault)": Math.round(USERS / firstApply),
    "first-sight ratio apply/plain": Number((firstPlain / firstApply).toFixed(2)),
    "same end state (positions, both paths)": end.positions,
    "same end state (owners holding shares)": end.activeOwners,
    "same end state (cohorts)": end.cohorts
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run())

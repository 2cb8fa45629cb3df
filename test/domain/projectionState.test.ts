import { type Address, generateKeyPairSigner } from "@solana/kit"
import { beforeAll, describe, expect, it } from "vitest"
import { encodeAccount } from "../../src/ntbundle/accounts.ts"
import {
  blankBundle,
  blankOracleData,
  blankReferrerAccount,
  blankUserBundleAccount
} from "../../src/ntbundle/blankAccounts.ts"
import { findOraclePda, findReferrerPda, findUserBundlePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { ProjectionState } from "../../src/domain/projection/state.ts"

const program = NTBUNDLE_PROGRAM_ID
const wallet = async (): Promise<Address> => (await generateKeyPairSigner()).address

const update = (address: string, slot: number, data: Uint8Array) => ({ address, owner: program, slot, data })
const bundleBytes = (fields: Parameters<typeof blankBundle>[0] = {}) => encodeAccount({ type: "Bundle", data: blankBundle(fields) })
const userBytes = (owner: Address, fields: Parameters<typeof blankUserBundleAccount>[1] = {}) =>
  encodeAccount({ type: "UserBundleAccount", data: blankUserBundleAccount(owner, fields) })

describe("ProjectionState", () => {
  let vaultA: Address, vaultB: Address, alice: Address, bob: Address, builder: Address
  beforeAll(async () => {
    ;[vaultA, vaultB, alice, bob, builder] = await Promise.all([wallet(), wallet(), wallet(), wallet(), wallet()])
  })

  it("finds the vault of a user account from its PDA, even when the user arrives first", () => {
    const state = new ProjectionState(program)
    const [aliceInB] = findUserBundlePda(program, alice, vaultB)
    state.apply(update(aliceInB, 5, userBytes(alice, { shares: 7n })))
    expect(state.users.get(aliceInB)?.vault).toBeNull()
    expect(state.unresolvedUsers.has(aliceInB)).toBe(true)

    state.apply(update(vaultA, 6, bundleBytes()))
    expect(state.users.get(aliceInB)?.vault).toBeNull()
    const changes = state.apply(update(vaultB, 7, bundleBytes()))
    expect(state.users.get(aliceInB)?.vault).toBe(vaultB)
    expect(state.unresolvedUsers.size).toBe(0)
    expect(changes).toContainEqual({ _tag: "UserChanged", account: aliceInB, owner: alice, vault: vaultB })
  })

  it("keeps each builder's cohort and share sum per vault as users bind, grow and leave", () => {
    const state = new ProjectionState(program)
    state.apply(update(vaultA, 1, bundleBytes()))
    state.apply(update(vaultB, 1, bundleBytes()))
    const [aliceInA] = findUserBundlePda(program, alice, vaultA)
    const [bobInA] = findUserBundlePda(program, bob, vaultA)
    const [bobInB] = findUserBundlePda(program, bob, vaultB)

    state.apply(update(aliceInA, 2, userBytes(alice, { shares: 100n })))
    expect(state.cohorts.get(builder, vaultA)).toBeUndefined()
    const bound = state.apply(update(aliceInA, 3, userBytes(alice, { shares: 100n, referrer: builder })))
    expect(bound).toContainEqual({ _tag: "ReferrerChanged", wallet: builder, vault: vaultA, cohort: true })
    state.apply(update(bobInA, 3, userBytes(bob, { shares: 50n, referrer: builder })))
    state.apply(update(bobInB, 3, userBytes(bob, { shares: 9n, referrer: builder })))

    expect(state.cohorts.get(builder, vaultA)?.shares).toBe(150n)
    expect(state.cohorts.get(builder, vaultA)?.positions.size).toBe(2)
    expect(state.cohorts.get(builder, vaultB)?.shares).toBe(9n)

    state.apply(update(aliceInA, 4, userBytes(alice, { shares: 130n, referrer: builder })))
    expect(state.cohorts.get(builder, vaultA)?.shares).toBe(180n)

    state.apply({ address: bobInA, owner: "11111111111111111111111111111111", slot: 5, data: new Uint8Array() })
    expect(state.cohorts.get(builder, vaultA)?.shares).toBe(130n)
    expect(state.cohorts.get(builder, vaultA)?.positions.has(bobInA)).toBe(false)
    expect([...state.positionsByOwner.get(bob)]).toEqual([bobInB])
    expect(state.accounts.has(bobInA)).toBe(false)
  })

  it("keeps the same indexes as a state built from the final accounts, through random position updates, rebindings and closures", () => {
    const owners = [alice, bob, builder]
    const builders = [null, builder, bob]
    const positions = owners.flatMap((owner) => [vaultA, vaultB].map((vault) => ({ owner, address: findUserBundlePda(program, owner, vault)[0] })))
    const state = new ProjectionState(program)
    state.apply(update(vaultA, 1, bundleBytes()))
    state.apply(update(vaultB, 1, bundleBytes()))
    const live = new Map<string, Uint8Array>()
    const referrerOf = new Map<string, Address | null>()
    let slot = 2
    const indexes = (of: ProjectionState) => ({
      positionsByOwner: owners.map((owner) => [...of.positionsByOwner.get(owner)].sort()),
      activeOwners: [...of.activeOwners].sort(),
      cohorts: builders.flatMap((wallet) =>
        wallet === null ? [] : [vaultA, vaultB].map((vault) => {
          const cohort = of.cohorts.get(wallet, vault)
          return cohort === undefined ? null : { shares: cohort.shares, users: [...cohort.positions].sort() }
        })
      ),
      referrersByVault: [vaultA, vaultB].map((vault) => [...of.referrersByVault.get(vault)].sort()),
      users: [...of.users].sort(([a], [b]) => a.localeCompare(b))
    })
    for (let step = 0; step < 600; step++) {
      const { owner, address } = positions[Math.floor(Math.random() * positions.length)]!
      const roll = Math.random()
      if (roll < 0.1) {
        state.apply({ address, owner: "11111111111111111111111111111111", slot: slot++, data: new Uint8Array() })
        live.delete(address)
        referrerOf.delete(address)
      } else if (roll < 0.15 && live.has(address)) {
        // Older than what is stored: ignored.
        state.apply(update(address, 0, userBytes(owner, { shares: 1n })))
      } else {
        // Mostly the same builder as before (amounts move), sometimes another one or none.
        const referrer = Math.random() < 0.7 && referrerOf.has(address) ? referrerOf.get(address)! : builders[Math.floor(Math.random() * builders.length)]!
        const shares = Math.random() < 0.3 ? 0n : BigInt(Math.floor(Math.random() * 1_000))
        const data = userBytes(owner, { shares, ...(referrer === null ? {} : { referrer }) })
        state.apply(update(address, slot++, data))
        live.set(address, data)
        referrerOf.set(address, referrer)
      }
      if (step % 50 === 49) {
        const rebuilt = new ProjectionState(program)
        rebuilt.apply(update(vaultA, 1, bundleBytes()))
        rebuilt.apply(update(vaultB, 1, bundleBytes()))
        for (const [address, data] of live) rebuilt.apply(update(address, 2, data))
        expect(indexes(state)).toEqual(indexes(rebuilt))
      }
    }
  })

  it("ignores an update older than the stored one and bumps the version only on change", () => {
    const state = new ProjectionState(program)
    state.apply(update(vaultA, 10, bundleBytes({ totalShares: 5n })))
    const version = state.version
    expect(state.apply(update(vaultA, 9, bundleBytes({ totalShares: 1n })))).toEqual([])
    expect(state.vaults.get(vaultA)?.bundle.totalShares).toBe(5n)
    expect(state.version).toBe(version)
    state.apply(update(vaultA, 10, bundleBytes({ totalShares: 6n })))
    expect(state.vaults.get(vaultA)?.bundle.totalShares).toBe(6n)
  })

  it("links oracle data to its vault whichever arrives first", () => {
    const state = new ProjectionState(program)
    const [oracleA] = findOraclePda(program, vaultA)
    state.apply(update(oracleA, 1, encodeAccount({ type: "OracleData", data: blankOracleData({ averageExternalEquity: 42n }) })))
    state.apply(update(vaultA, 2, bundleBytes()))
    expect(state.vaults.get(vaultA)?.oracle?.averageExternalEquity).toBe(42n)
    state.apply(update(oracleA, 3, encodeAccount({ type: "OracleData", data: blankOracleData({ averageExternalEquity: 43n }) })))
    expect(state.vaults.get(vaultA)?.oracle?.averageExternalEquity).toBe(43n)
  })

  it("indexes builder registrations and counts accounts it cannot decode without guessing", () => {
    const state = new ProjectionState(program)
    state.apply(update(vaultA, 1, bundleBytes()))
    const [registration] = findReferrerPda(program, vaultA, builder)
    state.apply(update(registration, 2, encodeAccount({ type: "ReferrerAccount", data: blankReferrerAccount(vaultA, builder, { referredNetDeposits: -5n }) })))
    expect(state.registrations.get(builder, vaultA)).toBe(registration)
    expect(state.referrers.get(registration)?.account.referredNetDeposits).toBe(-5n)
    expect([...state.referrersByVault.get(vaultA)]).toEqual([builder])

    const misSized = userBytes(alice).subarray(0, 300)
    state.apply(update(bob, 3, misSized))
    state.apply(update(alice, 3, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9])))
    expect(state.unrecognised.size).toBe(2)
    expect(state.users.size).toBe(0)
    expect(state.accounts.get(bob)?.kind).toBe("Unrecognised")
  })
})

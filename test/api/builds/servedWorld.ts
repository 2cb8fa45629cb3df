import { ProjectionState } from "../../../src/domain/projection/state.ts"
import { makeWorld, NOW, program, type WorldSpec } from "../../../src/bench/support/buildWorld.ts"

/**
 * A projection the test server reads, rewritten between cases as ingestion would: `become` closes
 * the accounts the next world lacks and writes its accounts at a newer slot.
 */
export const servedWorld = (firstSlot: number) => {
  const served = new ProjectionState(program)
  let slot = firstSlot
  const become = (spec: WorldSpec) => {
    const world = makeWorld(spec)
    slot += 10
    for (const address of [...served.accounts.keys()]) {
      if (!world.state.accounts.has(address)) served.apply({ address, owner: program, slot, data: new Uint8Array(0) })
    }
    for (const [address, account] of world.state.accounts) served.apply({ address, owner: program, slot, data: account.data })
    served.asOf = { slot, blockTime: Number(NOW) }
  }
  return { served, become }
}

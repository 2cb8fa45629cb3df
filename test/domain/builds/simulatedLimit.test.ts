import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { buildDepositTransaction } from "../../../src/domain/builds/deposit.ts"
import type { AcceptedDeposit } from "../../../src/domain/builds/responses.ts"
import { simulatedComputeUnitLimit, withComputeUnitLimit } from "../../../src/domain/builds/simulatedLimit.ts"
import { alice, context, makeWorld, program, vault } from "../../../src/bench/support/buildWorld.ts"
import { expectWellFormedBuild } from "./wellFormed.ts"

const accepted = (priorityFeeMicroLamports: bigint | null): AcceptedDeposit => {
  const response = Either.getOrThrow(
    buildDepositTransaction({
      ...context(makeWorld()),
      vaultAddress: vault,
      request: { userAddress: alice, amount: 5_000_000n, attribution: null, requireAttribution: false, priorityFeeMicroLamports },
      codeReferrer: null,
      userTokenBalance: null
    })
  )
  if (!response.validation.accepted) throw new Error("rejected")
  return response as AcceptedDeposit
}

describe("compute-unit limit from a simulation", () => {
  it("the units consumed plus 15 %, rounded up to a thousand, within [1,000, 1,400,000]", () => {
    expect(simulatedComputeUnitLimit(40_000)).toBe(46_000)
    expect(simulatedComputeUnitLimit(40_001)).toBe(47_000)
    expect(simulatedComputeUnitLimit(0)).toBe(1_000)
    expect(simulatedComputeUnitLimit(1_300_000)).toBe(1_400_000)
  })

  it.each([[5_000n], [0n]])("relimiting keeps a well-formed build (price %s): only the limit changes", (price) => {
    const build = accepted(price)
    const relimited = withComputeUnitLimit(build, 46_000)
    expect(relimited.computeUnitLimit).toBe(46_000)
    // the decoded limit instruction, instructions[], and kit's recompilation all agree
    expectWellFormedBuild(relimited, alice, program)
    expect(relimited.instructions.slice(1)).toEqual(build.instructions.slice(1))
    expect(relimited.instructions[0]!.dataBase64).not.toBe(build.instructions[0]!.dataBase64)
    const before = Buffer.from(build.transactionBase64, "base64")
    const after = Buffer.from(relimited.transactionBase64, "base64")
    expect(after.length).toBe(before.length)
    const differing = [...after].flatMap((byte, index) => (byte === before[index] ? [] : [index]))
    expect(differing.length).toBeGreaterThan(0)
    expect(differing.length).toBeLessThanOrEqual(4) // the u32 of the limit, nothing else
    expect({ ...relimited, transactionBase64: "", instructions: [], computeUnitLimit: 0 }).toEqual({
      ...build,
      transactionBase64: "",
      instructions: [],
      computeUnitLimit: 0
    })
  })
})

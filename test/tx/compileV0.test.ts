import { describe, expect, it } from "@effect/vitest"
import {
  AccountRole,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getAddressDecoder,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type AccountMeta,
  type Address,
  type Blockhash,
  type Instruction
} from "@solana/kit"
import { FastCheck } from "effect"
import { decodeBase58Bytes32 } from "../../src/ntbundle/base58.ts"
import { fromHex } from "../../src/ntbundle/bytes.ts"
import { decodeTransactionBase64 } from "../../src/ntbundle/txDecode.ts"
import { compileUnsignedV0, TransactionCompileError, unsignedV0TransactionBase64 } from "../../src/tx/compileV0.ts"
import { compareKitOrder, kitSortKey } from "../../src/tx/staticAddress.ts"

const kitCollator = new Intl.Collator("en", { caseFirst: "lower", sensitivity: "variant", usage: "sort", numeric: false })

const kitBase64 = (feePayer: Address, blockhash: string, instructions: ReadonlyArray<Instruction>): string =>
  getBase64EncodedWireTransaction(
    compileTransaction(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayer(feePayer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash as Blockhash, lastValidBlockHeight: 100n }, m),
        (m) => appendTransactionMessageInstructions(instructions, m)
      )
    )
  )

/** Kit's bytes, or "throws" when kit refuses the instructions. */
const kitOutcome = (feePayer: Address, blockhash: string, instructions: ReadonlyArray<Instruction>): string => {
  try {
    return kitBase64(feePayer, blockhash, instructions)
  } catch {
    return "throws"
  }
}

const ourOutcome = (feePayer: Address, blockhash: string, instructions: ReadonlyArray<Instruction>): string => {
  try {
    return unsignedV0TransactionBase64({ feePayer, blockhash, instructions })
  } catch (error) {
    if (error instanceof TransactionCompileError) return "throws"
    throw error
  }
}

const addressDecoder = getAddressDecoder()
const bytesToAddress = (bytes: Uint8Array): Address => addressDecoder.decode(bytes)

/** Flips the case of one letter when the result is still a 32-byte address: exercises the collation's case rule. */
const caseVariant = (address: Address, position: number): Address | null => {
  const chars = [...address]
  const char = chars[position % chars.length]!
  const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()
  if (flipped === char || !"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".includes(flipped)) return null
  chars[position % chars.length] = flipped
  const text = chars.join("")
  return decodeBase58Bytes32(text) === null ? null : (text as Address)
}

const addressArb = FastCheck.oneof(
  FastCheck.uint8Array({ minLength: 32, maxLength: 32 }),
  // leading zero bytes become leading '1's and short base58 text
  FastCheck.tuple(FastCheck.integer({ min: 1, max: 31 }), FastCheck.uint8Array({ minLength: 32, maxLength: 32 })).map(
    ([zeros, bytes]) => bytes.map((byte, i) => (i < zeros ? 0 : byte))
  )
).map(bytesToAddress)

const roleArb = (signerWeight: number) =>
  FastCheck.oneof(
    { arbitrary: FastCheck.constant(AccountRole.READONLY), weight: 4 },
    { arbitrary: FastCheck.constant(AccountRole.WRITABLE), weight: 4 },
    { arbitrary: FastCheck.constant(AccountRole.READONLY_SIGNER), weight: signerWeight },
    { arbitrary: FastCheck.constant(AccountRole.WRITABLE_SIGNER), weight: signerWeight }
  )

/** Addresses, some differing from another only in the case of one letter. */
const poolArb = (minLength: number, maxLength: number) =>
  FastCheck.array(addressArb, { minLength, maxLength }).chain((base) =>
    FastCheck.array(FastCheck.nat(), { maxLength: 6 }).map((positions) => {
      const variants = positions.flatMap((p) => {
        const v = caseVariant(base[p % base.length]!, p)
        return v === null ? [] : [v]
      })
      return [...new Set([...base, ...variants])]
    })
  )

const pickFrom = <A>(values: ReadonlyArray<A>) => FastCheck.integer({ min: 0, max: values.length - 1 }).map((i) => values[i]!)

const instructionArb = (programs: FastCheck.Arbitrary<Address>, accounts: FastCheck.Arbitrary<Address>, signerWeight: number) =>
  FastCheck.record(
    {
      programAddress: programs,
      accounts: FastCheck.array(FastCheck.record({ address: accounts, role: roleArb(signerWeight) }), { maxLength: 12 }),
      data: FastCheck.uint8Array({ maxLength: 200 })
    },
    { requiredKeys: ["programAddress"] }
  ) as FastCheck.Arbitrary<Instruction>

/** Anything goes: programs may be writable accounts or the fee payer, limits may be exceeded. */
const anyScenarioArb = poolArb(2, 24).chain((pool) =>
  FastCheck.record({
    feePayer: pickFrom(pool),
    blockhash: addressArb,
    instructions: FastCheck.array(instructionArb(pickFrom(pool), pickFrom(pool), 1), { maxLength: 10 })
  })
)

/** Always compilable: programs apart from the accounts, few signers besides the fee payer. */
const validScenarioArb = FastCheck.tuple(poolArb(1, 5), poolArb(2, 40), FastCheck.integer({ min: 0, max: 4 })).chain(
  ([programs, accounts, signerCount]) => {
    const programSet = new Set<string>(programs)
    const plain = accounts.filter((a) => !programSet.has(a))
    const signers = new Set(plain.slice(0, signerCount))
    const feePayer = plain[plain.length - 1] ?? plain[0]!
    const metaArb = FastCheck.record({ address: pickFrom(plain), role: roleArb(0) }).map(
      (meta): AccountMeta => (signers.has(meta.address) ? { ...meta, role: meta.role | 2 } : meta)
    )
    const programMeta = FastCheck.record({
      address: pickFrom(programs),
      role: FastCheck.constantFrom(AccountRole.READONLY, AccountRole.READONLY_SIGNER)
    })
    const instruction = FastCheck.record(
      {
        programAddress: pickFrom(programs),
        accounts: FastCheck.array(FastCheck.oneof({ arbitrary: metaArb, weight: 8 }, { arbitrary: programMeta, weight: 1 }), { maxLength: 12 }),
        data: FastCheck.uint8Array({ maxLength: 300 })
      },
      { requiredKeys: ["programAddress"] }
    ) as FastCheck.Arbitrary<Instruction>
    return FastCheck.record({
      feePayer: FastCheck.constant(feePayer),
      blockhash: addressArb,
      instructions: FastCheck.array(instruction, { maxLength: 8 })
    })
  }
)

describe("compileUnsignedV0", () => {
  it("orders addresses like kit's collator", () => {
    FastCheck.assert(
      FastCheck.property(addressArb, addressArb, FastCheck.nat(), (a, b, position) => {
        const variant = caseVariant(a, position) ?? b
        for (const other of [b, variant]) {
          const keyOrder = Math.sign(kitSortKey(a) < kitSortKey(other) ? -1 : kitSortKey(a) > kitSortKey(other) ? 1 : 0)
          expect(keyOrder).toBe(Math.sign(kitCollator.compare(a, other)))
        }
      }),
      { numRuns: 20_000 }
    )
  })

  it("compares addresses in place exactly like kit's collator (case variants and prefixes included)", () => {
    FastCheck.assert(
      FastCheck.property(addressArb, addressArb, FastCheck.nat(), FastCheck.nat(), (a, b, position, cut) => {
        const variant = caseVariant(a, position) ?? b
        const prefix = a.slice(0, 1 + (cut % a.length))
        for (const [left, right] of [[a, b], [a, variant], [variant, a], [a, a], [prefix, a], [a, prefix], [prefix, variant]] as const) {
          expect(Math.sign(compareKitOrder(left, right))).toBe(Math.sign(kitCollator.compare(left, right)))
        }
      }),
      { numRuns: 20_000 }
    )
  })

  it("produces kit's wire bytes for random instruction lists (or refuses exactly when kit does)", () => {
    let compiled = 0
    let refused = 0
    FastCheck.assert(
      FastCheck.property(anyScenarioArb, ({ feePayer, blockhash, instructions }) => {
        const ours = ourOutcome(feePayer, blockhash, instructions)
        expect(ours).toBe(kitOutcome(feePayer, blockhash, instructions))
        if (ours === "throws") refused++
        else compiled++
      }),
      { numRuns: 3_000 }
    )
    // both branches must be exercised for the property to mean anything
    expect(compiled).toBeGreaterThan(500)
    expect(refused).toBeGreaterThan(300)
  })

  it("matches kit on compilable lists (programs apart, up to 5 signers, some programs also passed as accounts)", () => {
    FastCheck.assert(
      FastCheck.property(validScenarioArb, ({ feePayer, blockhash, instructions }) => {
        expect(unsignedV0TransactionBase64({ feePayer, blockhash, instructions })).toBe(kitBase64(feePayer, blockhash, instructions))
      }),
      { numRuns: 3_000 }
    )
  })

  it("rebuilds the captured devnet deposit (facts §10.5): size, account order, header, data", () => {
    const user = "EpZtPfeiyT7avVCuKfucUCj4Kaj81sF87aeLKNPghGvh" as Address
    const program = "CcR9whVnaW3STx6LLYotwy5JJXmnC8KDjtRotA3NCL8v" as Address
    const statics: ReadonlyArray<Address> = ([
      user,
      "3G1TAQ6bcL2cJnPzg7QV16XknCsdxXhxGBtwMhuJESki",
      "4Qzddh5jpArRfTM24UUPy4mitVczyGfNSr3SXfZgcwjV",
      "5HpyymdWDwM1xg4TU6Te5Q5fm5mRjstyJqkkcEG3eN6c",
      "5JWFJ1KczRpeFDTS14VA9y3fWwUzQrhCrUFHuCe4vo76",
      "6a8hWCCa2QDQTqzLUapZwZtgHTox8BsgataN6JVLwdo7",
      "6hMrjCjxV6Uq2Zi8VkYbd8pxGe4mZ6abBVL27Uth7QRi",
      "7qNsifnwV3vifnCZVLmtkG7VopztVPCFQQVKQWb2bXyW",
      "8TqrZmyiWQ3F3WysiBaBQC1Nzj1LDn5AR7JjXBYzFxxQ",
      "HQTJaogndXuu99WLMFtsBQNp5hrHA4dvTinGNax39tbP",
      "11111111111111111111111111111111",
      program,
      "ComputeBudget111111111111111111111111111111",
      "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
    ] as ReadonlyArray<string>).map((text) => text as Address)
    const depositIndices = [0, 3, 4, 1, 9, 5, 7, 2, 8, 6, 13, 10]
    const roleOf = (index: number) =>
      index === 0 ? AccountRole.WRITABLE_SIGNER : index <= 9 ? AccountRole.WRITABLE : AccountRole.READONLY
    const instructions: ReadonlyArray<Instruction> = [
      { programAddress: statics[12]!, accounts: [], data: fromHex("0283b20000") },
      {
        programAddress: program,
        accounts: depositIndices.map((i) => ({ address: statics[i]!, role: roleOf(i) })),
        data: fromHex("f3cac5d78761d56d40420f0000000000")
      }
    ]
    const compiled = compileUnsignedV0({ feePayer: user, blockhash: "4rVwVjDXxZNRVecryZT4j8ccpRWaXrx8DY32q6JfptMe", instructions })
    expect(compiled.wireBytes.length).toBe(591)
    expect(compiled.messageBytes.length).toBe(526)
    expect(compiled.staticAccounts).toEqual(statics)
    expect(compiled.header).toEqual({ numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 4 })
    const decoded = decodeTransactionBase64(Buffer.from(compiled.wireBytes).toString("base64"))
    expect(decoded._tag).toBe("Right")
    if (decoded._tag === "Right") {
      expect(decoded.right.instructions.map((ix) => ix.dataHex)).toEqual(["0283b20000", "f3cac5d78761d56d40420f0000000000"])
      expect(decoded.right.signatures).toEqual([null])
      expect(decoded.right.addressTableLookups).toEqual([])
    }
  })

  it("refuses what kit refuses, with a reason", () => {
    const [payer, a, b] = Array.from({ length: 3 }, (_, i) => bytesToAddress(new Uint8Array(32).fill(i + 7)))
    const compileError = (instructions: ReadonlyArray<Instruction>) => {
      try {
        compileUnsignedV0({ feePayer: payer!, blockhash: a!, instructions })
        return null
      } catch (error) {
        return error instanceof TransactionCompileError ? error.reason : "other"
      }
    }
    expect(compileError([{ programAddress: payer! }])).toBe("INVOKED_PROGRAM_PAYS_FEES")
    expect(compileError([{ programAddress: a!, accounts: [{ address: a!, role: AccountRole.WRITABLE }] }])).toBe("INVOKED_PROGRAM_WRITABLE")
    expect(compileError([{ programAddress: b!, accounts: [{ address: "nope" as Address, role: AccountRole.READONLY }] }])).toBe("INVALID_ADDRESS")
    const many = Array.from({ length: 70 }, (_, i) => ({ address: bytesToAddress(new Uint8Array(32).fill(100 + i)), role: AccountRole.READONLY }))
    expect(compileError([{ programAddress: b!, accounts: many }])).toBe("TOO_MANY_ACCOUNTS")
    expect(() => unsignedV0TransactionBase64({ feePayer: payer!, blockhash: "not-a-hash", instructions: [] })).toThrow(TransactionCompileError)
  })
})

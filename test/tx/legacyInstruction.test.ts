import { describe, expect, it } from "@effect/vitest"
import { AccountRole, type Address } from "@solana/kit"
import { toLegacyWireInstruction } from "../../src/tx/legacyInstruction.ts"

describe("toLegacyWireInstruction", () => {
  it("maps each role to its two flags, keeps order and duplicates, base64-encodes the data", () => {
    const a = "11111111111111111111111111111111" as Address
    const b = "SysvarRent111111111111111111111111111111111" as Address
    const program = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address
    expect(
      toLegacyWireInstruction({
        programAddress: program,
        accounts: [
          { address: a, role: AccountRole.WRITABLE_SIGNER },
          { address: b, role: AccountRole.READONLY_SIGNER },
          { address: a, role: AccountRole.WRITABLE },
          { address: b, role: AccountRole.READONLY }
        ],
        data: Uint8Array.of(0xf3, 0xca, 0xff)
      })
    ).toEqual({
      programId: program,
      accounts: [
        { pubkey: a, isSigner: true, isWritable: true },
        { pubkey: b, isSigner: true, isWritable: false },
        { pubkey: a, isSigner: false, isWritable: true },
        { pubkey: b, isSigner: false, isWritable: false }
      ],
      dataBase64: "88r/"
    })
  })

  it("an instruction without accounts or data has empty ones", () => {
    expect(toLegacyWireInstruction({ programAddress: "ComputeBudget111111111111111111111111111111" as Address })).toEqual({
      programId: "ComputeBudget111111111111111111111111111111",
      accounts: [],
      dataBase64: ""
    })
  })
})

import { describe, expect, it } from "vitest"
import { StringPool } from "../../src/sandbox/ledger/stringPool.ts"

describe("StringPool", () => {
  it("gives one instance per distinct text, equal to what it was given", () => {
    const pool = new StringPool(10)
    const id = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"
    const first = pool.intern(`Program ${id} invoke [1]`)
    const second = pool.intern(["Program", id, "invoke", "[1]"].join(" "))
    expect(first).toBe(`Program ${id} invoke [1]`)
    expect(second).toBe(first)
    expect(pool.intern("é, 中文 and 🙂")).toBe("é, 中文 and 🙂")
    expect(pool.size).toBe(2)
  })

  it("stops pooling at its capacity and still returns the text", () => {
    const pool = new StringPool(2)
    for (const text of ["a", "b", "c", "d"]) expect(pool.intern(text)).toBe(text)
    expect(pool.size).toBe(2)
  })
})

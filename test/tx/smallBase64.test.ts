import { describe, expect, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { base64Of } from "../../src/tx/smallBase64.ts"

describe("base64Of", () => {
  it("equals Buffer's standard base64 for every length up to past the small limit, views included", () => {
    for (let length = 0; length <= 200; length++) {
      for (let round = 0; round < 5; round++) {
        const backing = new Uint8Array(randomBytes(length + 7))
        const view = backing.subarray(3, 3 + length)
        expect(base64Of(view)).toBe(Buffer.from(view).toString("base64"))
      }
    }
  })

  it("handles all-zero and all-one bytes (the alphabet's ends)", () => {
    for (const fill of [0, 255]) {
      for (const length of [1, 2, 3, 4, 95, 96, 97]) {
        const bytes = new Uint8Array(length).fill(fill)
        expect(base64Of(bytes)).toBe(Buffer.from(bytes).toString("base64"))
      }
    }
  })
})

import { describe, expect, it } from "vitest"
import { arrayItemRanges, eachJsonItem } from "../../../layers/solana/jsonBody.ts"

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, "utf8"))

/** The items eachJsonItem visits in an array. */
const itemsOf = (text: string): Array<unknown> => {
  const items: Array<unknown> = []
  expect(eachJsonItem(bytesOf(text), (item) => items.push(item))).toBe(true)
  return items
}

/** A batch answer over the 64 KB at which items are parsed one at a time. */
const batchAnswer = (items: number) =>
  Array.from({ length: items }, (_, id) => ({
    jsonrpc: "2.0",
    id,
    result: {
      // quotes, backslashes before a closing quote, brackets and commas inside strings
      logs: [`Program log: "quoted", [${id}] {x}`, "ends in a backslash \\", "\\\"", "é, ü, 🚀 ,]}"],
      balances: [0, 1_000_000_000, id],
      nested: [[], {}, [{ a: [1, { b: "]" }] }]],
      data: "QUJD".repeat(300),
      none: null,
      flag: id % 2 === 0
    }
  }))

describe("eachJsonItem", () => {
  it("parses a large batch answer item by item to what JSON.parse gives", () => {
    const value = batchAnswer(120)
    const text = JSON.stringify(value)
    expect(text.length).toBeGreaterThan(64 * 1024)
    const ranges = arrayItemRanges(Buffer.from(text))
    expect(ranges).toHaveLength(120)
    expect(itemsOf(text)).toEqual(value)
    // whitespace around and between the items
    const spaced = ` \n[ ${value.map((item) => JSON.stringify(item, null, 2)).join(" ,\n ")} ]\r\n`
    expect(itemsOf(spaced)).toEqual(value)
  })

  it("visits a small array's items too, and none of an object or an empty array", () => {
    const small = batchAnswer(2)
    expect(itemsOf(JSON.stringify(small))).toEqual(small)
    const visited: Array<unknown> = []
    expect(eachJsonItem(bytesOf(`{"jsonrpc":"2.0","id":1,"result":[1,"]"]}`), (item) => visited.push(item))).toBe(false)
    expect(eachJsonItem(bytesOf(JSON.stringify({ result: batchAnswer(120) })), (item) => visited.push(item))).toBe(false)
    expect(eachJsonItem(bytesOf(" [ ] "), (item) => visited.push(item))).toBe(true)
    expect(visited).toEqual([])
    expect(arrayItemRanges(Buffer.from(" [\n] "))).toEqual([])
    expect(arrayItemRanges(Buffer.from('{"a":[1,2]}'))).toBeNull()
  })

  it("rejects a malformed large body as JSON.parse does", () => {
    const good = JSON.stringify(batchAnswer(120))
    const malformed = [
      good.slice(0, -1), // no closing bracket
      good.slice(0, -1) + ",]", // a trailing comma
      good + "x", // something after the array
      good.slice(0, -1) + ',{"a":"unterminated]', // a string left open
      good.slice(0, -1) + ",{]}]", // brackets that do not pair
      good.slice(0, -1) + ",,1]" // an empty item
    ]
    for (const text of malformed) {
      expect(() => JSON.parse(text)).toThrow(SyntaxError)
      expect(() => eachJsonItem(bytesOf(text), () => {})).toThrow(SyntaxError)
    }
  })
})

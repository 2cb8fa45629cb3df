import { describe, expect, it } from "@effect/vitest"
import { GenerationalCache } from "../src/generationalCache.ts"

describe("GenerationalCache", () => {
  it("keeps recent and recently used entries, drops the rest, stays bounded", () => {
    const cache = new GenerationalCache<number, string>(4)
    let computed = 0
    const get = (key: number) => cache.getOrCompute(key, () => (computed++, `v${key}`))
    get(1)
    get(2) // young {1,2}
    get(3) // young full: old {1,2}, young {3}
    expect(get(1)).toBe("v1") // promoted from old: young {3,1}
    get(4) // old {3,1}, young {4}
    get(5) // young {4,5}
    get(6) // old {4,5}, young {6}: 2 and 3, 1 are gone
    expect(computed).toBe(6)
    get(1)
    get(2)
    expect(computed).toBe(8)
    expect(get(6)).toBe("v6")
    expect(computed).toBe(8)
  })
})

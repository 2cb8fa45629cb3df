import { describe, expect, it } from "@effect/vitest"
import {
  checksumOf,
  environmentOfKey,
  generateApiKey,
  hashApiKey,
  hasValidChecksum,
  KEY_PREFIXES
} from "../../../src/domain/partnerKeys/apiKeyFormat.ts"

describe("partner key format", () => {
  it("environment prefix, 32 random base62 characters, 6 base62 checksum characters", () => {
    expect(generateApiKey("sandbox")).toMatch(/^vg_sandbox_[0-9A-Za-z]{38}$/)
    expect(generateApiKey("devnet")).toMatch(/^vg_devnet_[0-9A-Za-z]{38}$/)
    expect(generateApiKey("mainnet")).toMatch(/^vg_prod_[0-9A-Za-z]{38}$/)
    for (const cluster of ["sandbox", "devnet", "mainnet"] as const) {
      expect(environmentOfKey(generateApiKey(cluster))).toBe(cluster)
    }
    expect(environmentOfKey("nt_prod_abc")).toBeUndefined()
  })

  it("the checksum is the first 32 bits of SHA-256 over the rest, in base62", () => {
    const key = generateApiKey("sandbox")
    expect(hasValidChecksum(key)).toBe(true)
    expect(key.slice(-6)).toBe(checksumOf(key.slice(0, -6)))
    // Any one changed character is caught.
    const body = key.slice(KEY_PREFIXES.sandbox.length)
    for (let i = 0; i < body.length; i++) {
      const changed = body[i] === "a" ? "b" : "a"
      const tampered = KEY_PREFIXES.sandbox + body.slice(0, i) + changed + body.slice(i + 1)
      expect(hasValidChecksum(tampered)).toBe(false)
    }
    expect(hasValidChecksum(key + "x")).toBe(false)
    expect(hasValidChecksum(key.replace("vg_sandbox_", "vg_prod_"))).toBe(false)
  })

  it("keys do not repeat and use the whole alphabet", () => {
    const keys = Array.from({ length: 2000 }, () => generateApiKey("sandbox"))
    expect(new Set(keys).size).toBe(keys.length)
    const seen = new Set(keys.flatMap((key) => [...key.slice(KEY_PREFIXES.sandbox.length, -6)]))
    expect(seen.size).toBe(62)
  })

  it("the stored form is the hex SHA-256 of the whole key", () => {
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  })
})

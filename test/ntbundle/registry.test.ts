import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { isAddress } from "@solana/kit"
import {
  NTBUNDLE_DEVNET_PROGRAM_ID,
  NTBUNDLE_LEGACY_PROGRAM_ID,
  NTBUNDLE_PROGRAM_ID
} from "../../src/ntbundle/programs.ts"
import { registryVaultByAddress, registryVaultById, registryVaults } from "../../src/ntbundle/registry.ts"
import { DEPOSIT_TOKEN_SYMBOLS, tokenByMint, tokenBySymbol } from "../../src/ntbundle/tokens.ts"
import { buildRegistryFile, type RegistrySourceRow } from "../../scripts/registrySource.ts"

describe("vault registry", () => {
  it("holds the 24 mainnet and 8 devnet Bundle vaults, ids ascending and unique", () => {
    for (const [cluster, count] of [["mainnet", 24], ["devnet", 8]] as const) {
      const vaults = registryVaults(cluster)
      expect(vaults).toHaveLength(count)
      const ids = vaults.map((v) => v.id)
      expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b))
      expect(vaults.every((v) => isAddress(v.address))).toBe(true)
    }
    expect(registryVaults("devnet").map((v) => v.id)).toEqual([100000002, 100000003, 100000004, 100000005, 100000006, 100000007, 100000008, 100000009])
  })

  it("looks up by legacy id and by address, per cluster", () => {
    const autopilot = registryVaultById("mainnet", 76)
    expect(autopilot).toMatchObject({
      name: "Master Bundle",
      subname: null,
      displayName: "Master Bundle",
      address: "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ",
      program: NTBUNDLE_PROGRAM_ID,
      mainLayout: true,
      depositToken: "USDC",
      category: "Master Vault",
      pointsEnabled: true,
      pointsMultiplier: 2
    })
    expect(registryVaultByAddress("mainnet", "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ")).toBe(autopilot)
    expect(registryVaultByAddress("devnet", "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ")).toBeUndefined()
    expect(registryVaultById("mainnet", 0)).toBeUndefined() // a Drift vault: not served by ntbundle
    expect(registryVaultById("mainnet", 100000004)).toBeUndefined()

    const devnet = registryVaultByAddress("devnet", "8TqrZmyiWQ3F3WysiBaBQC1Nzj1LDn5AR7JjXBYzFxxQ")
    expect(devnet).toMatchObject({ id: 100000004, name: "bundle-4", program: NTBUNDLE_DEVNET_PROGRAM_ID })
    expect(devnet?.token.mint).toBe("6a8hWCCa2QDQTqzLUapZwZtgHTox8BsgataN6JVLwdo7")
  })

  it("keeps subnames, program overrides and missing multipliers", () => {
    expect(registryVaultById("mainnet", 72)?.displayName).toBe("CTA-Adaptive Alpha (Atlas Research)")
    expect(registryVaultById("mainnet", 69)).toMatchObject({ program: NTBUNDLE_LEGACY_PROGRAM_ID, mainLayout: false, subname: "vault-jupiter" })
    expect(registryVaultById("mainnet", 49)?.pointsMultiplier).toBeNull()
    expect(registryVaultById("mainnet", 81)).toMatchObject({ depositToken: "USDE", pointsEnabled: false })
    expect(registryVaultById("mainnet", 67)?.token.mint).toBe("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB")
    const onlyLegacy = registryVaults("mainnet").filter((v) => v.program !== NTBUNDLE_PROGRAM_ID)
    expect(onlyLegacy.map((v) => v.id)).toEqual([69])
  })

  it("has the launched-vault candidates with points enabled", () => {
    const pointsIds = registryVaults("mainnet").filter((v) => v.pointsEnabled).map((v) => v.id)
    expect(pointsIds).toEqual([48, 60, 65, 71, 72, 74, 75, 76, 77, 78, 80, 82, 83])
  })

  const reference = fileURLToPath(new URL("../../../shared/reference/", import.meta.url))
  it.skipIf(!existsSync(`${reference}vaults.json`))("matches a fresh generation from the reference registries", () => {
    const rows = (file: string) => JSON.parse(readFileSync(`${reference}${file}`, "utf8")) as ReadonlyArray<RegistrySourceRow>
    const committed = JSON.parse(readFileSync(new URL("../../src/ntbundle/registry.json", import.meta.url), "utf8"))
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildRegistryFile(rows("vaults.json"), rows("vaults.devnet.json")))))
  })
})

describe("token table", () => {
  it("mints and decimals", () => {
    expect(DEPOSIT_TOKEN_SYMBOLS.map((s) => [s, tokenBySymbol("mainnet", s).decimals])).toEqual([
      ["USDC", 6], ["USDT", 6], ["USDE", 9], ["SOL", 9], ["WBTC", 8], ["WETH", 8], ["JLP", 6]
    ])
    expect(tokenBySymbol("mainnet", "USDC").mint).toBe("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
    expect(tokenBySymbol("mainnet", "SOL")).toMatchObject({ displaySymbol: "wSOL", mint: "So11111111111111111111111111111111111111112" })
  })

  it("devnet overrides USDC only", () => {
    expect(tokenBySymbol("devnet", "USDC").mint).toBe("6a8hWCCa2QDQTqzLUapZwZtgHTox8BsgataN6JVLwdo7")
    expect(tokenBySymbol("devnet", "JLP")).toEqual(tokenBySymbol("mainnet", "JLP"))
  })

  it("resolves by mint per cluster", () => {
    expect(tokenByMint("mainnet", tokenBySymbol("mainnet", "WETH").mint)?.symbol).toBe("WETH")
    expect(tokenByMint("mainnet", tokenBySymbol("devnet", "USDC").mint)).toBeUndefined()
    expect(tokenByMint("devnet", tokenBySymbol("devnet", "USDC").mint)?.symbol).toBe("USDC")
  })
})

import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { getAddressDecoder, getAddressEncoder, getProgramDerivedAddress, isOffCurveAddress, type Address } from "@solana/kit"
import { decodeBase58Bytes32, encodeBase58Bytes32 } from "../../src/ntbundle/base58.ts"
import { isOnEd25519Curve } from "../../src/ntbundle/ed25519.ts"
import {
  encodeBundleName,
  findAssociatedTokenAddress,
  findBundleAssetAuthorityPda,
  findBundleCreatorPda,
  findBundleMasterPda,
  findBundlePda,
  findBundleTempDataPda,
  findOraclePda,
  findPendingBundleAssetAuthorityPda,
  findProgramAddressSync,
  findReferrerPda,
  findStrategyPda,
  findUserBundlePda,
  deriveBundleAccounts
} from "../../src/ntbundle/pdas.ts"
import { ASSOCIATED_TOKEN_PROGRAM_ID, NTBUNDLE_DEVNET_PROGRAM_ID, NTBUNDLE_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { addr, golden } from "./golden.ts"

const deriveCase = (kind: string, program: Address, seeds: ReadonlyArray<string>) => {
  const [a = "", b = ""] = seeds
  switch (kind) {
    case "oracle":
      return findOraclePda(program, addr(a))
    case "bundleTempData":
      return findBundleTempDataPda(program, addr(a))
    case "pendingBundleAssetAuthority":
      return findPendingBundleAssetAuthorityPda(program, addr(a))
    case "bundleAssetAuthority":
      return findBundleAssetAuthorityPda(program, addr(a))
    case "userBundle":
      return findUserBundlePda(program, addr(a), addr(b))
    case "referrer":
      return findReferrerPda(program, addr(a), addr(b))
    case "ata":
      return findAssociatedTokenAddress(addr(a), addr(b))
    case "bundle": {
      const name = encodeBundleName(a)
      if (name === null) throw new Error("name too long")
      return findBundlePda(program, name)
    }
    default:
      throw new Error(`unknown PDA kind ${kind}`)
  }
}

describe("PDAs", () => {
  it("covers both golden sets and the name-derived bundle", () => {
    expect(golden.pdas.length).toBe(21)
  })

  for (const vector of golden.pdas) {
    it(`${vector.case} = ${vector.address} (bump ${vector.bump})`, () => {
      const [address, bump] = deriveCase(vector.kind, addr(vector.program), vector.seeds)
      expect(address).toBe(vector.address)
      expect(bump).toBe(vector.bump)
    })
  }

  it("user-bundle seeds are owner first, referrer seeds bundle first (swapping changes the address)", () => {
    const devnet = golden.pdas.filter((p) => p.case.startsWith("devnetFixture."))
    const userBundle = devnet.find((p) => p.case === "devnetFixture.userBundleAccount")!
    const referrer = devnet.find((p) => p.case === "devnetFixture.referrerAccount")!
    const [user, bundle] = userBundle.seeds.map(addr) as [Address, Address]
    const [bundle2, ref] = referrer.seeds.map(addr) as [Address, Address]
    expect(findUserBundlePda(NTBUNDLE_DEVNET_PROGRAM_ID, bundle, user)[0]).not.toBe(userBundle.address)
    expect(findReferrerPda(NTBUNDLE_DEVNET_PROGRAM_ID, ref, bundle2)[0]).not.toBe(referrer.address)
  })

  it("derives per program id: the same seeds under mainnet and devnet differ", () => {
    const bundle = addr("8TqrZmyiWQ3F3WysiBaBQC1Nzj1LDn5AR7JjXBYzFxxQ")
    expect(findOraclePda(NTBUNDLE_PROGRAM_ID, bundle)[0]).not.toBe(findOraclePda(NTBUNDLE_DEVNET_PROGRAM_ID, bundle)[0])
  })

  it("deriveBundleAccounts matches the individual derivations of the devnet fixture", () => {
    const byCase = (name: string) => golden.pdas.find((p) => p.case === `devnetFixture.${name}`)!.address
    const derived = deriveBundleAccounts(
      NTBUNDLE_DEVNET_PROGRAM_ID,
      addr("8TqrZmyiWQ3F3WysiBaBQC1Nzj1LDn5AR7JjXBYzFxxQ"),
      addr("6a8hWCCa2QDQTqzLUapZwZtgHTox8BsgataN6JVLwdo7")
    )
    expect(derived).toEqual({
      oracleData: byCase("oracleData"),
      bundleTempData: byCase("bundleTempData"),
      pendingBundleAssetAuthority: byCase("pendingBundleAssetAuthority"),
      bundleAssetAuthority: byCase("bundleAssetAuthority"),
      pendingDepositTokenAccount: byCase("pendingDepositTokenAccount_ATA"),
      bundleAssetTokenAccount: byCase("bundleAssetTokenAccount_ATA")
    })
  })

  it("seeds without golden vectors (STRATEGY, BUNDLE_MASTER, BUNDLE_CREATOR) agree with kit's async derivation", async () => {
    const receiver = addr("GgBaCs3NpeEJ7YhVtQzE9rqwG5azSMPmNJydJVJs2e92")
    const bundle = addr("J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ")
    const text = (s: string) => new TextEncoder().encode(s)
    const encoder = getAddressEncoder()
    const cases = [
      [findStrategyPda(NTBUNDLE_PROGRAM_ID, receiver, bundle), [text("STRATEGY"), encoder.encode(receiver), encoder.encode(bundle)]],
      [findBundleMasterPda(NTBUNDLE_PROGRAM_ID), [text("BUNDLE_MASTER")]],
      [findBundleCreatorPda(NTBUNDLE_PROGRAM_ID, receiver), [text("BUNDLE_CREATOR"), encoder.encode(receiver)]]
    ] as const
    for (const [sync, seeds] of cases) {
      expect(sync).toEqual(await getProgramDerivedAddress({ programAddress: NTBUNDLE_PROGRAM_ID, seeds: [...seeds] }))
    }
  })

  it("findProgramAddressSync equals kit's getProgramDerivedAddress for random seeds", async () => {
    await FastCheck.assert(
      FastCheck.asyncProperty(
        FastCheck.array(FastCheck.uint8Array({ minLength: 0, maxLength: 32 }), { minLength: 0, maxLength: 4 }),
        async (seeds) => {
          const expected = await getProgramDerivedAddress({ programAddress: ASSOCIATED_TOKEN_PROGRAM_ID, seeds })
          expect(findProgramAddressSync(ASSOCIATED_TOKEN_PROGRAM_ID, seeds)).toEqual(expected)
        }
      ),
      { numRuns: 300 }
    )
  })

  it("the on-curve check agrees with kit's isOffCurveAddress on random and edge-case bytes", () => {
    const decoder = getAddressDecoder()
    const yOf = (low: number, fill: number, top: number) => Uint8Array.of(low, ...new Array(30).fill(fill), top)
    const edgeCases = [
      new Uint8Array(32),
      Uint8Array.from({ length: 32 }, () => 0xff),
      // y = 1, p − 1, p + 1 (y² = 1, so x = 0) with the sign bit clear and set, and their neighbours
      ...[0x00, 0x80].flatMap((sign) => [yOf(1, 0, sign), yOf(0xec, 0xff, 0x7f | sign), yOf(0xee, 0xff, 0x7f | sign), yOf(2, 0, sign), yOf(0xed, 0xff, 0x7f | sign), yOf(0xeb, 0xff, 0x7f | sign), yOf(0xef, 0xff, 0x7f | sign)])
    ]
    for (const bytes of edgeCases) expect(isOnEd25519Curve(bytes)).toBe(!isOffCurveAddress(decoder.decode(bytes)))
    FastCheck.assert(
      FastCheck.property(FastCheck.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        expect(isOnEd25519Curve(bytes)).toBe(!isOffCurveAddress(decoder.decode(bytes)))
      }),
      { numRuns: 2000 }
    )
  })

  it("rejects seeds the runtime would reject", () => {
    expect(() => findProgramAddressSync(NTBUNDLE_PROGRAM_ID, [new Uint8Array(33)])).toThrow(RangeError)
    expect(() => findProgramAddressSync(NTBUNDLE_PROGRAM_ID, Array.from({ length: 16 }, () => new Uint8Array(1)))).toThrow(RangeError)
  })

  it("bundle names are right-padded to 32 bytes; longer names have no PDA", () => {
    expect(encodeBundleName("ab")).toEqual(Uint8Array.of(0x61, 0x62, ...new Array(30).fill(0)))
    expect(encodeBundleName("x".repeat(33))).toBeNull()
  })

  it("ATAs use the classic token program", () => {
    const owner = addr("EpZtPfeiyT7avVCuKfucUCj4Kaj81sF87aeLKNPghGvh")
    const mint = addr("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
    expect(findAssociatedTokenAddress(owner, mint)[0]).toBe(golden.pdas.find((p) => p.case === "mainnetAutopilot.userTokenAccount_ATA")!.address)
    expect(TOKEN_PROGRAM_ID).toBe("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
  })
})

describe("base58 for 32-byte values", () => {
  const kitDecoder = getAddressDecoder()
  const kitEncoder = getAddressEncoder()

  it("encodes and decodes exactly like kit, including leading zero bytes", () => {
    const withLeadingZeros = FastCheck.tuple(FastCheck.nat(32), FastCheck.uint8Array({ minLength: 32, maxLength: 32 })).map(
      ([zeros, bytes]) => Uint8Array.from(bytes, (byte, i) => (i < zeros ? 0 : byte))
    )
    FastCheck.assert(
      FastCheck.property(FastCheck.oneof(FastCheck.uint8Array({ minLength: 32, maxLength: 32 }), withLeadingZeros), (bytes) => {
        const text = kitDecoder.decode(bytes)
        expect(encodeBase58Bytes32(bytes)).toBe(text)
        expect(decodeBase58Bytes32(text)).toEqual(new Uint8Array(kitEncoder.encode(text)))
      }),
      { numRuns: 2000 }
    )
    expect(encodeBase58Bytes32(new Uint8Array(32))).toBe("11111111111111111111111111111111")
    expect(encodeBase58Bytes32(new Uint8Array(32).fill(255))).toBe("JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG")
  })

  it("rejects text that is not base58 or not 32 bytes", () => {
    for (const bad of ["", "0", "I", "l", "O", "+", "é", "1".repeat(33), "JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFH", "2".repeat(45), "111"]) {
      expect(decodeBase58Bytes32(bad)).toBeNull()
    }
  })
})

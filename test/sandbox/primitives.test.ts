import { describe, expect, it } from "@effect/vitest"
import { address, createKeyPairSignerFromBytes, getBase58Decoder, getBase58Encoder, getProgramDerivedAddress } from "@solana/kit"
import { decodeBase58, encodeBase58 } from "../../src/ntbundle/base58.ts"
import { createPublicKey, verify } from "node:crypto"
import { ed25519, nodeEd25519 } from "../../src/sandbox/crypto/ed25519.ts"
import { deterministicKeypair, keypairFromSecretKey, verifySignature } from "../../src/sandbox/crypto/keypair.ts"
import { findProgramAddress } from "../../src/ntbundle/programAddress.ts"
import { createRandom } from "../../src/sandbox/crypto/random.ts"
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"
import { associatedTokenAddress } from "../../src/sandbox/programs/instructions.ts"
import { decodeMint, decodeTokenAccount, encodeMint, encodeTokenAccount, formatUiAmount } from "../../src/sandbox/programs/tokenLayout.ts"

describe("deterministic randomness", () => {
  it("repeats a stream for the same seed and stream name, and differs otherwise", () => {
    const draw = (seed: string, stream: string) => {
      const random = createRandom(seed, stream)
      return Array.from({ length: 8 }, () => random.nextU32())
    }
    expect(draw("1", "users")).toEqual(draw("1", "users"))
    expect(draw("1", "users")).not.toEqual(draw("2", "users"))
    expect(draw("1", "users")).not.toEqual(draw("1", "builders"))
  })

  it("forks independent streams and draws in range", () => {
    const parent = createRandom(7)
    const forkBefore = parent.fork("prices").nextU32()
    parent.nextU32()
    parent.nextU32()
    expect(parent.fork("prices").nextU32()).toBe(forkBefore)
    const random = createRandom(7, "ranges")
    for (let index = 0; index < 1_000; index++) {
      const value = random.int(-3, 3)
      expect(value).toBeGreaterThanOrEqual(-3)
      expect(value).toBeLessThanOrEqual(3)
      const big = random.bigintBelow(10n ** 30n)
      expect(big >= 0n && big < 10n ** 30n).toBe(true)
    }
    const floats = Array.from({ length: 10_000 }, () => random.nextFloat())
    const mean = floats.reduce((sum, value) => sum + value, 0) / floats.length
    expect(mean).toBeGreaterThan(0.45)
    expect(mean).toBeLessThan(0.55)
  })
})

describe("keypairs", () => {
  it("derives the same keypair from (seed, label), in Solana's 64-byte form that kit accepts", async () => {
    const keypair = deterministicKeypair(1, "user-0")
    expect(deterministicKeypair(1, "user-0").address).toBe(keypair.address)
    expect(deterministicKeypair(1, "user-1").address).not.toBe(keypair.address)
    expect(keypair.secretKey.subarray(32)).toEqual(keypair.publicKey)
    expect((await createKeyPairSignerFromBytes(keypair.secretKey)).address).toBe(keypair.address)
    expect(keypairFromSecretKey(keypair.secretKey).address).toBe(keypair.address)
    const message = new TextEncoder().encode("hello")
    const signature = keypair.sign(message)
    expect(verifySignature(keypair.publicKey, message, signature)).toBe(true)
    signature[0] = signature[0]! ^ 1
    expect(verifySignature(keypair.publicKey, message, signature)).toBe(false)
  })

  // the sandbox's Ed25519 (libsodium where its addon loads) and the node:crypto one it falls back to
  for (const backend of new Set([ed25519, nodeEd25519])) {
    it(`${backend.name}: signs as RFC 8032 says, OpenSSL accepts its signatures, and wrong sizes are refused`, () => {
      // RFC 8032 section 7.1, TEST 2 (a one-byte message)
      const { publicKey, sign } = backend.fromSeed(Buffer.from("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "hex"))
      expect(Buffer.from(publicKey).toString("hex")).toBe("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
      expect(Buffer.from(sign(Buffer.from("72", "hex"))).toString("hex")).toBe(
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
      )
      const openSslKey = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKey).toString("base64url") }, format: "jwk" })
      const message = new TextEncoder().encode("a transaction message")
      const signature = sign(message)
      expect(verify(null, message, openSslKey, signature)).toBe(true)
      expect(backend.verify(publicKey, message, signature)).toBe(true)
      expect(backend.verify(publicKey, message.subarray(1), signature)).toBe(false)
      expect(backend.verify(publicKey.subarray(1), message, signature)).toBe(false)
      expect(backend.verify(publicKey, message, signature.subarray(1))).toBe(false)
      // a program address is no point on the curve: refused, not thrown
      const [programAddress] = findProgramAddress([new TextEncoder().encode("vault")], TOKEN_PROGRAM_ID)
      expect(backend.verify(decodeBase58(programAddress)!, message, signature)).toBe(false)
    })
  }
})

describe("base58 and program derived addresses agree with kit", () => {
  it("encodes and decodes base58 like kit, leading zeros included", () => {
    const random = createRandom("base58")
    const kitEncoder = getBase58Encoder()
    const kitDecoder = getBase58Decoder()
    for (let index = 0; index < 300; index++) {
      const bytes = random.bytes(random.int(0, 70))
      if (index % 5 === 0) bytes.fill(0, 0, Math.min(3, bytes.length))
      const text = encodeBase58(bytes)
      expect(text).toBe(kitDecoder.decode(bytes))
      expect(decodeBase58(text)).toEqual(new Uint8Array(kitEncoder.encode(text)))
    }
    expect(decodeBase58("0OIl")).toBeUndefined()
  })

  it("finds the same PDAs as kit, the associated token address included", async () => {
    const program = deterministicKeypair("pda", "program").address
    for (let index = 0; index < 20; index++) {
      const seeds = [new TextEncoder().encode(`seed-${index}`), deterministicKeypair("pda", String(index)).publicKey]
      const [ours, bump] = findProgramAddress(seeds, program)
      const [kits, kitBump] = await getProgramDerivedAddress({ programAddress: address(program), seeds })
      expect(ours).toBe(kits)
      expect(bump).toBe(kitBump)
    }
    const wallet = deterministicKeypair("pda", "wallet")
    const mint = deterministicKeypair("pda", "mint")
    const [ata] = await getProgramDerivedAddress({
      programAddress: address(ASSOCIATED_TOKEN_PROGRAM_ID),
      seeds: [wallet.publicKey, getBase58Encoder().encode(TOKEN_PROGRAM_ID), mint.publicKey]
    })
    expect(associatedTokenAddress(wallet.address, mint.address)).toBe(ata)
  })
})

describe("SPL Token layouts", () => {
  it("round-trips mints (82 bytes) and token accounts (165 bytes)", () => {
    const authority = deterministicKeypair("layout", "authority").address
    const mint = { mintAuthority: authority, supply: 2n ** 63n + 5n, decimals: 6, isInitialized: true, freezeAuthority: null }
    const mintBytes = encodeMint(mint)
    expect(mintBytes).toHaveLength(82)
    expect(decodeMint(mintBytes)).toEqual(mint)
    expect(mintBytes[44]).toBe(6)
    const account = {
      mint: deterministicKeypair("layout", "mint").address,
      owner: authority,
      amount: 123_456_789n,
      delegate: null,
      state: "initialized" as const,
      isNative: null,
      delegatedAmount: 0n,
      closeAuthority: null
    }
    const accountBytes = encodeTokenAccount(account)
    expect(accountBytes).toHaveLength(165)
    expect(decodeTokenAccount(accountBytes)).toEqual(account)
    expect(Buffer.from(accountBytes).readBigUInt64LE(64)).toBe(123_456_789n)
    expect(accountBytes[108]).toBe(1)
  })

  it("formats ui amounts without trailing zeros", () => {
    expect(formatUiAmount(1_500_000n, 6)).toBe("1.5")
    expect(formatUiAmount(1_000_000n, 6)).toBe("1")
    expect(formatUiAmount(5n, 6)).toBe("0.000005")
    expect(formatUiAmount(0n, 6)).toBe("0")
    expect(formatUiAmount(42n, 0)).toBe("42")
  })
})

import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { address, createKeyPairSignerFromBytes, createSolanaRpc, devnet, lamports } from "@solana/kit"
import { Effect } from "effect"
import { decodeBase58 } from "../../src/ntbundle/base58.ts"
import { deterministicKeypair } from "../../src/sandbox/crypto/keypair.ts"
import { sandboxScoped } from "../../src/sandbox/layer.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"
import { associatedTokenAddress } from "../../src/sandbox/programs/instructions.ts"
import { rpcCall, startTestSandbox, type TestSandbox } from "./support.ts"

let test: TestSandbox

beforeAll(async () => {
  test = await startTestSandbox()
})
afterAll(async () => {
  await test.sandbox.close()
})

describe("sandbox_* methods", () => {
  it("sandbox_info describes the run", async () => {
    const { sandbox } = test
    const info = (await rpcCall(sandbox.rpcUrl, "sandbox_info")).result
    expect(info).toMatchObject({
      programId: DEFAULT_NTBUNDLE_PROGRAM_ID,
      rpcUrl: sandbox.rpcUrl,
      wsUrl: sandbox.wsUrl,
      slot: sandbox.ledger.slot,
      blockHeight: sandbox.ledger.clock.blockHeight(),
      seed: "test",
      slotMs: 400,
      clock: "manual",
      genesisHash: sandbox.chain.genesisHash
    })
    expect(Number(new URL(sandbox.wsUrl).port)).toBe(Number(new URL(sandbox.rpcUrl).port) + 1)
  })

  it("sandbox_step advances slots and runs the slot tasks due", async () => {
    const { sandbox } = test
    const seen: number[] = []
    const stop = sandbox.chain.scheduler.onSlot((slot) => seen.push(slot))
    const start = sandbox.ledger.slot
    let onceAt: number | undefined
    sandbox.chain.scheduler.at(start + 2, (slot) => {
      onceAt = slot
    })
    const answer = await rpcCall(sandbox.rpcUrl, "sandbox_step", [{ slots: 3 }])
    stop()
    expect(answer.result).toEqual({ slot: start + 3, blockHeight: sandbox.ledger.clock.blockHeight(start + 3) })
    expect(seen).toEqual([start + 1, start + 2, start + 3])
    expect(onceAt).toBe(start + 2)
    expect((await rpcCall(sandbox.rpcUrl, "sandbox_step")).result).toMatchObject({ slot: start + 4 })
  })

  it("sandbox_airdrop sends SOL, or creates the associated token account and mints", async () => {
    const { sandbox, rpc } = test
    const owner = deterministicKeypair("test", "airdrop-owner").address
    const sol = await rpcCall(sandbox.rpcUrl, "sandbox_airdrop", [{ owner, amount: 2_000_000_000 }])
    expect(sol.result).toMatchObject({ address: owner, amount: "2000000000" })
    expect((await rpc.getBalance(address(owner), { commitment: "confirmed" }).send()).value).toBe(2_000_000_000n)

    const mint = deterministicKeypair("test", "airdrop-mint").address
    sandbox.chain.createMint(mint, 6)
    sandbox.step(1)
    const tokens = await rpcCall(sandbox.rpcUrl, "sandbox_airdrop", [{ owner, mint, amount: "123456789" }])
    const ata = associatedTokenAddress(owner, mint)
    expect(tokens.result).toMatchObject({ address: ata, amount: "123456789" })
    const balance = await rpc.getTokenAccountBalance(address(ata), { commitment: "confirmed" }).send()
    expect(balance.value.amount).toBe("123456789")
    // A second airdrop tops the same account up (and is not a duplicate transaction).
    await rpcCall(sandbox.rpcUrl, "sandbox_airdrop", [{ owner, mint, amount: "1" }])
    expect((await rpc.getTokenAccountBalance(address(ata), { commitment: "confirmed" }).send()).value.amount).toBe("123456790")
    const history = await rpc.getSignaturesForAddress(address(ata), { commitment: "confirmed" }).send()
    expect(history).toHaveLength(2)

    const notAMint = await rpcCall(sandbox.rpcUrl, "sandbox_airdrop", [{ owner, mint: owner, amount: 1 }])
    expect(notAMint.error?.code).toBe(-32602)
    const requested = await createSolanaRpc(devnet(sandbox.rpcUrl)).requestAirdrop(address(owner), lamports(1_000n)).send()
    expect(typeof requested).toBe("string")
    expect((await rpc.getBalance(address(owner), { commitment: "confirmed" }).send()).value).toBe(2_000_001_000n)
  })

  it("sandbox_wallets hands out secret keys that kit can sign with", async () => {
    const { sandbox } = test
    const user = deterministicKeypair("test", "wallet-user")
    const builder = deterministicKeypair("test", "wallet-builder")
    sandbox.chain.wallets.add(user, "user")
    sandbox.chain.wallets.add(builder, "builder")
    const wallets = (await rpcCall(sandbox.rpcUrl, "sandbox_wallets")).result as Array<{ address: string; role: string; secretKey: string }>
    expect(wallets.map(({ address: walletAddress, role }) => ({ address: walletAddress, role }))).toEqual([
      { address: user.address, role: "user" },
      { address: builder.address, role: "builder" }
    ])
    const signer = await createKeyPairSignerFromBytes(decodeBase58(wallets[1]!.secretKey)!)
    expect(signer.address).toBe(builder.address)
  })

  it("sandbox_setAccount validates its input", async () => {
    const { sandbox } = test
    const bad = await rpcCall(sandbox.rpcUrl, "sandbox_setAccount", [{ address: "nope", owner: DEFAULT_NTBUNDLE_PROGRAM_ID, data: "" }])
    expect(bad.error?.code).toBe(-32602)
    const target = deterministicKeypair("test", "set-account").address
    const good = await rpcCall(sandbox.rpcUrl, "sandbox_setAccount", [{ address: target, owner: DEFAULT_NTBUNDLE_PROGRAM_ID, data: "AQID", lamports: "5000000" }])
    expect(good.result).toEqual({ slot: sandbox.ledger.slot })
    expect(sandbox.ledger.getAccount(target)).toMatchObject({ owner: DEFAULT_NTBUNDLE_PROGRAM_ID, lamports: 5_000_000n, data: Uint8Array.of(1, 2, 3) })
  })
})

describe("the Effect entry point", () => {
  it.live("starts in a scope, advances on its own clock, and closes its sockets with the scope", () =>
    Effect.gen(function* () {
      const rpcUrl = yield* Effect.scoped(
        Effect.gen(function* () {
          const handle = yield* sandboxScoped({ port: 0, slotMs: 20, seed: 3 })
          const rpc = createSolanaRpc(handle.rpcUrl)
          const first = yield* Effect.promise(() => rpc.getSlot({ commitment: "confirmed" }).send())
          yield* Effect.sleep("150 millis")
          const later = yield* Effect.promise(() => rpc.getSlot({ commitment: "confirmed" }).send())
          expect(later).toBeGreaterThan(first)
          return handle.rpcUrl
        })
      )
      const afterClose = yield* Effect.promise(() =>
        fetch(rpcUrl, { method: "POST", body: "{}" }).then(
          () => "answered",
          () => "refused"
        )
      )
      expect(afterClose).toBe("refused")
    })
  )
})

import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Duration, Effect, Either, Layer } from "effect"
import { RateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"
import { BuilderCodesLive } from "../../../layers/postgres/BuilderCodesLive.ts"
import { CohortEventLogLive } from "../../../layers/postgres/CohortEventLogLive.ts"
import { VaultHistoryLive } from "../../../layers/postgres/VaultHistoryLive.ts"
import { ReferrersApi } from "../../../src/api/referrers/ReferrersApi.ts"
import { UsersApi } from "../../../src/api/users/UsersApi.ts"
import { UsersHandlersLive } from "../../../src/api/users/UsersHandlers.ts"
import { ReferrersHandlersLive } from "../../../src/api/referrers/ReferrersHandlers.ts"
import { ReferrerPayoutsLive } from "../../../layers/postgres/ReferrerPayoutsLive.ts"
import { BlockhashLive } from "../../../layers/solana/BlockhashLive.ts"
import { SimulatorLive } from "../../../layers/solana/SimulatorLive.ts"
import { PriorityFeesLive } from "../../../layers/solana/PriorityFeesLive.ts"
import { TokenBalancesLive } from "../../../layers/solana/TokenBalancesLive.ts"
import { ApiRoutesLive } from "../../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { Projection } from "../../../services/Projection.ts"
import { BuildsApi } from "../../../src/api/builds/BuildsApi.ts"
import { BuildsLive } from "../../../src/api/builds/BuildsLive.ts"
import { chainNow } from "../../../src/api/builds/buildFlow.ts"
import { LegacyBuildsApi } from "../../../src/api/builds/LegacyBuildsApi.ts"
import { catalogEntryById } from "../../../src/domain/catalog.ts"
import type { VaultConfig } from "../../../src/sandbox/scenario/vaultGenesis.ts"
import { PublicApi } from "../../../src/api/public/PublicApi.ts"
import { PublicHandlersLive } from "../../../src/api/public/PublicHandlers.ts"
import { NoPricesLive } from "../../../layers/memory/PricesLive.ts"
import { BadRequestResponse, HeadersTooLargeResponse, InternalErrorResponse, UriTooLongResponse } from "../../../src/api/errors.ts"
import { readPosition } from "../../../src/domain/builds/projectedAccounts.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { expectWellFormedBuild } from "../../domain/builds/wellFormed.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../../src/bench/support/partnerKeyStandIn.ts"
import { listenForTest } from "../../../src/bench/support/httpTestServer.ts"
import { ingestLayer, scenarioSandbox, settledAgainstTruth, stepSlots } from "../../support/ingestHarness.ts"
import { sandboxWallets, signAndSend, type SandboxWallet } from "./sandboxSigning.ts"

// The acceptance path over real sockets: the gateway builds against its projection of the sandbox
// chain, a scenario wallet signs what it got and submits it to the sandbox, the keeper processes
// it, and the projection shows the outcome.
const BuildsOnlyApi = HttpApi.make("vault-gateway")
  .add(BuildsApi)
  .add(LegacyBuildsApi)
  .add(PublicApi)
  .add(ReferrersApi)
  .add(UsersApi)
  .addError(BadRequestResponse)
  .addError(UriTooLongResponse)
  .addError(HeadersTooLargeResponse)
  .addError(InternalErrorResponse)

const AUTOPILOT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const scenario = {
  seed: 21,
  users: 10,
  builders: 3,
  activity: 0,
  initialPositions: 0.5,
  vaultIds: [76, 60, 48],
  keeperIntervalSlots: 1,
  // positions opened a day ago: past the vault's withdrawal delay
  historyDays: 1,
  historyStepSeconds: 4 * 3_600,
  bulkCacheDirectory: false,
  // AUTOPILOT: withdrawals open an hour after a deposit, and the keeper pays them 20-30 s after the request
  configureVault: (config: VaultConfig, id: number): VaultConfig =>
    id === 76 ? { ...config, withdrawalDelaySeconds: 3_600n, withdrawalTMinSeconds: 20n, withdrawalTMaxSeconds: 30n } : config
} as const

describe("builders against the sandbox chain", () => {
  it.live("deposit, attributed deposit, code, withdrawals and an expired blockhash, signed and landed", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const rpcUrl = sandbox.handle.rpcUrl
      const ingest = yield* Layer.build(
        Layer.mergeAll(BlockhashLive({ refreshInterval: Duration.millis(50) }), PriorityFeesLive(), TokenBalancesLive(), BuilderCodesLive).pipe(
          Layer.provideMerge(ingestLayer(rpcUrl, sandbox.handle.wsUrl, NTBUNDLE_PROGRAM_ID))
        )
      )
      const projection = Context.get(ingest, Projection)
      const waitFor = <A>(what: string, probe: () => A | null | undefined) =>
        Effect.gen(function*() {
          for (let i = 0; i < 400; i++) {
            const value = probe()
            if (value !== null && value !== undefined) return value
            yield* stepSlots(sandbox, 1)
            yield* Effect.sleep(Duration.millis(10))
          }
          return yield* Effect.die(new Error(`timed out waiting for ${what}`))
        })
      yield* waitFor("live", () => (projection.currentStatus().status === "live" ? true : null))
      const routes = ApiRoutesLive(BuildsOnlyApi).pipe(
        Layer.provide(
          Layer.mergeAll(
            BuildsLive({ perIp: { limit: 1_000, windowSeconds: 60 }, trustProxy: false }),
            PublicHandlersLive,
            UsersHandlersLive,
            ReferrersHandlersLive.pipe(Layer.provide(Layer.merge(ReferrerPayoutsLive, CohortEventLogLive)))
          )
        ),
        Layer.provide(Layer.mergeAll(NoPricesLive, PartnerKeyStandIn, VaultHistoryLive, SimulatorLive())),
        Layer.provide(RateLimiterLive)
      )
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const url = Context.get(server, HttpListener).url
      const build = (kind: "deposit" | "withdraw", body: object) =>
        fetchJson(`${url}/v2/vault/${AUTOPILOT}/tx/${kind}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body)
        })
      const positionOf = (owner: string) =>
        Either.getOrNull(projection.readSync((state) => readPosition(state, NTBUNDLE_PROGRAM_ID, owner as Address, AUTOPILOT)))
      const send = (wallet: SandboxWallet, transactionBase64: string) => Effect.promise(() => signAndSend(rpcUrl, wallet, transactionBase64))

      const wallets = yield* Effect.promise(() => sandboxWallets(rpcUrl))
      const newcomers = wallets.filter((wallet) => wallet.role === "user" && positionOf(wallet.address) === null)
      expect(newcomers.length).toBeGreaterThanOrEqual(3)
      const [plain, attributed, coded] = newcomers as [SandboxWallet, SandboxWallet, SandboxWallet]
      const builders = sandbox.scenario.buildersByVault.get(AUTOPILOT) ?? []
      expect(builders.length).toBeGreaterThan(0)
      const builder = builders[0]!.keypair.address

      // a plain deposit: the shares appear once the keeper has processed it
      const first = yield* build("deposit", { userAddress: plain.address, amountRaw: "250000000" })
      expect(first.status).toBe(200)
      expect(first.body.data.validation.accepted).toBe(true)
      expect(first.body.data.initializesUserAccount).toBe(true)
      expect(first.body.data.simulation).toBe("simulated")
      expectWellFormedBuild(first.body.data, plain.address, NTBUNDLE_PROGRAM_ID)
      yield* send(plain, first.body.data.transactionBase64)
      const plainShares = yield* waitFor("the plain deposit's shares", () => {
        const position = positionOf(plain.address)
        return position !== null && position.shares > 0n ? position.shares : null
      })
      expect(plainShares).toBeGreaterThan(0n)
      // and the user's balance read shows them
      const balance = yield* fetchJson(`${url}/v2/vault/${AUTOPILOT}/user/${plain.address}/balance`, {
        headers: { "x-api-key": TEST_PARTNER_KEY }
      })
      expect(balance.status).toBe(200)
      expect(balance.body.data.shares.raw).toBe(plainShares.toString())

      // an attributed first deposit binds the user to the builder
      const second = yield* build("deposit", { userAddress: attributed.address, amountRaw: "300000000", referrer: builder, requireAttribution: true })
      expect(second.body.data.validation).toEqual({ accepted: true, rejectionReasons: [] })
      expect(second.body.data.attribution).toEqual({ applied: true, referrer: builder })
      const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
      const builderGroup = () =>
        Effect.map(fetchJson(`${url}/v2/referrer/${builder}/summary`, keyed), (summary) => {
          expect(summary.status).toBe(200)
          return (summary.body.data.vaults.find((group: { vault: string }) => group.vault === AUTOPILOT) ?? { attributedUsers: 0 }) as {
            attributedUsers: number
          }
        })
      const summaryBefore = yield* builderGroup()
      yield* send(attributed, second.body.data.transactionBase64)
      yield* waitFor("the attributed position", () => {
        const position = positionOf(attributed.address)
        return position !== null && position.shares > 0n && position.referrer === builder ? position : null
      })
      // the builder's reporting names the new user: in its users list, and counted in its summary
      const usersPage = yield* Effect.gen(function*() {
        for (let i = 0; i < 100; i++) {
          const page = yield* fetchJson(`${url}/v2/referrer/${builder}/users?vault=${AUTOPILOT}&limit=100`, keyed)
          expect(page.status).toBe(200)
          if (page.body.data.users.some((entry: { user: string }) => entry.user === attributed.address)) return page
          yield* stepSlots(sandbox, 1)
          yield* Effect.sleep(Duration.millis(50))
        }
        return yield* Effect.die(new Error("the builder's users list never named the attributed user"))
      })
      const listedUser = usersPage.body.data.users.find((entry: { user: string }) => entry.user === attributed.address)
      expect(listedUser).toMatchObject({ vault: AUTOPILOT })
      const summaryAfter = yield* builderGroup()
      expect(summaryAfter.attributedUsers).toBe(summaryBefore.attributedUsers + 1)

      // a code resolves through the codes table (any case)
      const codes = Context.get(ingest, BuilderCodes)
      yield* codes.set("Acme", builder as Address)
      const third = yield* build("deposit", { userAddress: coded.address, amountRaw: "200000000", code: "ACME" })
      expect(third.body.data.attribution).toEqual({ applied: true, referrer: builder, code: "ACME" })
      yield* send(coded, third.body.data.transactionBase64)
      yield* waitFor("the coded position", () => (positionOf(coded.address)?.referrer === builder ? true : null))
      const resolved = yield* fetchJson(`${url}/public/codes/acme`, { headers: { origin: "https://dapp.example" } })
      expect(resolved.status).toBe(200)
      expect(resolved.body).toEqual({ success: true, data: { code: "Acme", referrer: builder } })
      expect(resolved.headers.get("cache-control")).toBe("public, max-age=60")
      expect(resolved.headers.get("access-control-allow-origin")).toBe("*")
      yield* codes.set("Gone", builder as Address)
      expect(yield* codes.disable("gone")).toBe(true)
      const disabled = yield* fetchJson(`${url}/public/codes/Gone`)
      expect(disabled.status).toBe(404)
      expect(disabled.body).toMatchObject({ success: false, error: "NOT_FOUND" })
      expect((yield* fetchJson(`${url}/public/codes/never-set`)).status).toBe(404)
      const unknownCode = yield* build("deposit", { userAddress: coded.address, amountRaw: "200000000", code: "NOPE", requireAttribution: true })
      expect(unknownCode.body.data.validation.accepted).toBe(false)
      expect(unknownCode.body.data.validation.rejectionReasons[0].code).toBe("ATTRIBUTION_REQUIRED")
      // a string that cannot be a code (PostgreSQL refuses a NUL byte) is an unknown code, not a 500
      for (const code of ["\u0000", "ac\u0000me", "café"]) {
        const notACode = yield* build("deposit", { userAddress: coded.address, amountRaw: "200000000", code })
        expect(notACode.status).toBe(200)
        expect(notACode.body.data.attribution).toMatchObject({ applied: false, reason: "UNKNOWN_CODE" })
      }
      expect((yield* fetchJson(`${url}/public/codes/%00`)).status).toBe(404)

      // insufficient balance: the one chain read on the build path
      const tooMuch = yield* build("deposit", { userAddress: plain.address, amountRaw: "18000000000000000000" })
      expect(tooMuch.status).toBe(200)
      expect(tooMuch.body.data.validation.rejectionReasons.map((r: { code: string }) => r.code)).toContain("INSUFFICIENT_TOKEN_BALANCE")

      // a deposit within the withdrawal delay cannot be withdrawn yet: 200, accepted false
      const early = yield* build("withdraw", { userAddress: plain.address, amountRaw: "100000000" })
      expect(early.status).toBe(200)
      expect(early.body.data.validation.rejectionReasons[0].code).toBe("WITHDRAWAL_DELAY_NOT_MET")
      expect(early.body.data).not.toHaveProperty("transactionBase64")

      // withdrawals from older positions: partial, and all of another one. The history's last step (the
      // rest of the day up to now) may have deposited for some users within the delay: not those.
      const [delay, now] = Either.getOrThrow(projection.readSync((state) => [state.vaults.get(AUTOPILOT)!.bundle.withdrawalDelay, chainNow(state)] as const))
      const veterans = wallets.filter((wallet) => {
        const position = wallet.role === "user" && !newcomers.includes(wallet) ? positionOf(wallet.address) : null
        return position !== null && position.shares > 1_000_000n && position.pendingShares === 0n && position.lastDepositTimestamp + delay <= now
      })
      expect(veterans.length).toBeGreaterThanOrEqual(2)
      const [partialUser, allUser] = veterans as [SandboxWallet, SandboxWallet]
      const partialBefore = positionOf(partialUser.address)!.shares
      const partial = yield* build("withdraw", { userAddress: partialUser.address, amountRaw: "1000000" })
      expect(partial.body.data.validation).toEqual({ accepted: true, rejectionReasons: [] })
      const partialShares = BigInt(partial.body.data.sharesAmount)
      expect(partialShares).toBeLessThan(positionOf(partialUser.address)!.shares)
      yield* send(partialUser, partial.body.data.transactionBase64)
      yield* waitFor("the partial withdrawal", () => (positionOf(partialUser.address)?.pendingShares === partialShares ? true : null))
      const blocked = yield* build("withdraw", { userAddress: partialUser.address, withdrawAll: true })
      expect(blocked.body.data.validation.rejectionReasons[0].code).toBe("WITHDRAWAL_ALREADY_PENDING")
      // the clock is manual: once the projection equals the chain, nothing moves until the next step
      yield* settledAgainstTruth(sandbox).pipe(Effect.provide(ingest))
      const allShares = positionOf(allUser.address)!.shares
      const all = yield* build("withdraw", { userAddress: allUser.address, withdrawAll: true })
      expect(all.body.data.validation).toEqual({ accepted: true, rejectionReasons: [] })
      expect(all.body.data.sharesAmount).toBe(allShares.toString())
      yield* send(allUser, all.body.data.transactionBase64)
      yield* waitFor("the full withdrawal", () => (positionOf(allUser.address)?.pendingShares === allShares ? true : null))
      // the keeper pays both once their cooldown has passed: the shares leave the positions
      yield* waitFor("the keeper to pay the withdrawals", () => {
        const part = positionOf(partialUser.address)
        const whole = positionOf(allUser.address)
        const partPaid = part !== null && part.pendingShares === 0n && part.shares <= partialBefore - partialShares
        const wholePaid = whole === null || (whole.pendingShares === 0n && whole.shares === 0n)
        return partPaid && wholePaid ? true : null
      })
      const partialBalance = yield* fetchJson(`${url}/v2/vault/${AUTOPILOT}/user/${partialUser.address}/balance`, {
        headers: { "x-api-key": TEST_PARTNER_KEY }
      })
      expect(partialBalance.status).toBe(200)
      expect(BigInt(partialBalance.body.data.shares.raw)).toBe(positionOf(partialUser.address)!.shares)
      expect(BigInt(partialBalance.body.data.shares.raw)).toBeLessThanOrEqual(partialBefore - partialShares)

      // legacy v1: the same build as bare instructions, deprecated with a link to the v2 builder
      expect(catalogEntryById(76)?.registry.address).toBe(AUTOPILOT)
      const v1 = yield* fetchJson(`${url}/api/v1/vault/76/deposit-instructions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userAddress: coded.address, amountRaw: "50000000" })
      })
      expect(v1.status).toBe(200)
      expect(v1.headers.get("deprecation")).toBe("true")
      expect(v1.headers.get("link")).toBe(`</v2/vault/${AUTOPILOT}/tx/deposit>; rel="successor-version"`)
      expect(v1.body.data).toMatchObject({ vaultId: 76, chain: "solana" })
      const v2 = yield* build("deposit", { userAddress: coded.address, amountRaw: "50000000" })
      expect(v1.body.data.instructions).toEqual(
        v2.body.data.instructions.filter((ix: { programId: string }) => ix.programId !== "ComputeBudget111111111111111111111111111111")
      )
      const v1Refused = yield* fetchJson(`${url}/api/v1/vault/76/withdraw-instructions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userAddress: coded.address, amountRaw: "1000000" })
      })
      expect(v1Refused.status).toBe(422)
      expect(v1Refused.body).toMatchObject({ success: false, error: "BUILD_REFUSED" })
      expect((yield* fetchJson(`${url}/api/v1/vault/424242/deposit-instructions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(404)

      // the public yields list: catalog vaults, no price source (tvlUsd null), no history (APYs null)
      const yields = yield* fetchJson(`${url}/public/yields`)
      expect(yields.status).toBe(200)
      const listed = yields.body.data.vaults as Array<{ bundleKey: string; tvlUsd: unknown; apy7dAfterFees: unknown; asset: { mint: string } }>
      expect(listed.length).toBeGreaterThan(0)
      expect(listed.map((vault) => vault.bundleKey)).toContain(AUTOPILOT)
      for (const vault of listed) expect(vault).toMatchObject({ tvlUsd: null, apy7dAfterFees: null })

      // a transaction past its lastValidBlockHeight is refused; a fresh build lands
      const stale = yield* build("deposit", { userAddress: coded.address, amountRaw: "50000000" })
      expect(stale.body.data.validation).toEqual({ accepted: true, rejectionReasons: [] })
      yield* stepSlots(sandbox, 160, 1)
      const refused = yield* Effect.either(send(coded, stale.body.data.transactionBase64).pipe(Effect.catchAllDefect(Effect.fail)))
      expect(refused._tag).toBe("Left")
      expect(String((refused as { left: unknown }).left)).toMatch(/blockhash/i)
      yield* Effect.sleep(Duration.millis(200))
      const fresh = yield* build("deposit", { userAddress: coded.address, amountRaw: "50000000" })
      expect(fresh.body.data.blockhash).not.toBe(stale.body.data.blockhash)
      const signature = yield* send(coded, fresh.body.data.transactionBase64)
      expect(typeof signature).toBe("string")
    }).pipe(Effect.scoped), 180_000)
})

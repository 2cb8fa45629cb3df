import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { type ActionGetResponse, type ActionPostResponse, type ActionsJson, type CompletedAction, createActionHeaders, encodeURL, parseURL } from "@solana/actions"
import { Keypair, VersionedTransaction } from "@solana/web3.js"
import { type Address, getBase58Encoder } from "@solana/kit"
import { Context, Duration, Effect, Layer } from "effect"
import { NoPricesLive } from "../../../layers/memory/PricesLive.ts"
import { RateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"
import { BuilderCodesLive } from "../../../layers/postgres/BuilderCodesLive.ts"
import { PositionRequestsLive } from "../../../layers/postgres/PositionRequestsLive.ts"
import { VaultHistoryLive } from "../../../layers/postgres/VaultHistoryLive.ts"
import { BlockhashLive } from "../../../layers/solana/BlockhashLive.ts"
import { PriorityFeesLive } from "../../../layers/solana/PriorityFeesLive.ts"
import { SimulatorLive } from "../../../layers/solana/SimulatorLive.ts"
import { TokenBalancesLive } from "../../../layers/solana/TokenBalancesLive.ts"
import { ActionIconRouteLive } from "../../../layers/uws/ActionIconRoute.ts"
import { ApiRoutesLive } from "../../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { ActionsApi } from "../../../src/api/actions/ActionsApi.ts"
import { ActionsLive } from "../../../src/api/actions/ActionsHandlers.ts"
import { BuildsLive } from "../../../src/api/builds/BuildsLive.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../../src/api/errors.ts"
import { UsersApi } from "../../../src/api/users/UsersApi.ts"
import { UsersHandlersLive } from "../../../src/api/users/UsersHandlers.ts"
import { catalogEntryById } from "../../../src/domain/catalog.ts"
import { BuildsApi } from "../../../src/api/builds/BuildsApi.ts"
import { processDepositIx, netPendingTransactionsIx } from "../../../src/ntbundle/ix/keeper.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { fromKitInstructions } from "../../../src/sandbox/ntbundle/kitInstruction.ts"
import { listenForTest } from "../../../src/bench/support/httpTestServer.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../../src/bench/support/partnerKeyStandIn.ts"
import { pendingWhen as awaitPending } from "../../support/pendingPoll.ts"
import { fetchJson, type JsonResponse } from "../../support/httpFetch.ts"
import { liveIngestion, sandboxCall, scenarioSandbox } from "../../support/ingestHarness.ts"
import { sandboxWallets } from "../builds/sandboxSigning.ts"

// A blink's whole path over real sockets: an Actions client reads the card, posts the wallet,
// signs the transaction it gets with the wallet's key (web3.js, as Actions clients do), sends it
// to the sandbox chain, and the deposit shows in the partner read of pending requests.
const ActionsTestApi = HttpApi.make("vault-gateway")
  .add(ActionsApi)
  .add(BuildsApi)
  .add(UsersApi)
  .addError(BadRequestResponse)
  .addError(InternalErrorResponse)

const VAULT_ID = 76
const scenario = {
  seed: 67, users: 6, builders: 1, activity: 0, keeperIntervalSlots: 10_000_000, vaultIds: [VAULT_ID],
  configureVault: (config: any) => ({ ...config, depositFeeBps: 50, withdrawalDelaySeconds: 0n, oracleMaxAgeSeconds: 0n })
}
const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
const ORIGIN = "https://vaults.example"

describe("Solana Actions against the sandbox chain", () => {
  it.live("actions.json, cards, a signed deposit and withdrawal seen as pending, refusals and bad input as Actions errors", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const { chain, actions, keeper } = sandbox.scenario
      const rpcUrl = sandbox.handle.rpcUrl
      const { ingest } = yield* liveIngestion(sandbox)
      const buildServices = Layer.mergeAll(
        BlockhashLive({ refreshInterval: Duration.millis(50) }),
        PriorityFeesLive(),
        TokenBalancesLive(),
        SimulatorLive(),
        BuilderCodesLive,
        RateLimiterLive
      )
      const routes = Layer.merge(ApiRoutesLive(ActionsTestApi), ActionIconRouteLive).pipe(
        Layer.provide(Layer.mergeAll(
          ActionsLive({ origin: new URL(ORIGIN) }),
          BuildsLive({ perIp: { limit: 1_000, windowSeconds: 60 }, trustProxy: false }),
          UsersHandlersLive
        )),
        Layer.provide(Layer.mergeAll(buildServices, PartnerKeyStandIn, NoPricesLive, PositionRequestsLive, VaultHistoryLive))
      )
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const url = Context.get(server, HttpListener).url

      const V = sandbox.scenario.vaults[0]!.config.address as Address
      const vault = () => actions.vault(V)!
      const mint = vault().bundle.assetAddress as Address
      const decimals = vault().bundle.assetDecimals
      const unit = 10n ** BigInt(decimals)
      const wallets = yield* Effect.promise(() => sandboxWallets(rpcUrl))
      const [alice, bob] = wallets.filter((wallet) => wallet.role === "user" && actions.position(wallet.address, V) === null)
      expect(alice).toBeDefined()
      expect(bob).toBeDefined()
      chain.airdropTokens(alice!.address, mint, 1_000n * unit)
      const genesisHash = (yield* Effect.promise(() => sandboxCall(rpcUrl, "getGenesisHash"))) as string
      // the headers the Actions library prescribes for this chain and version
      const expected = createActionHeaders({ chainId: `solana:${genesisHash.slice(0, 32)}`, actionVersion: "2.4" })
      const expectActionHeaders = (response: JsonResponse) => {
        expect(response.headers.get("access-control-allow-origin")).toBe(expected["Access-Control-Allow-Origin"])
        expect(response.headers.get("x-action-version")).toBe(expected["X-Action-Version"])
        expect(response.headers.get("x-blockchain-ids")).toBe(expected["X-Blockchain-Ids"])
        for (const name of ["X-Action-Version", "X-Blockchain-Ids"]) {
          expect(response.headers.get("access-control-expose-headers")).toContain(name)
        }
      }
      const post = (path: string, body: unknown) =>
        fetchJson(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
      const withAmount = (href: string, amount: string) => href.replace("{amount}", encodeURIComponent(amount))
      /** What a wallet does with the POST answer: deserialize, check it is asked to sign alone, sign, send. */
      const signAndSend = (secretKey: string, transaction: string) =>
        Effect.promise(async () => {
          const signer = Keypair.fromSecretKey(new Uint8Array(getBase58Encoder().encode(secretKey)))
          const tx = VersionedTransaction.deserialize(Buffer.from(transaction, "base64"))
          expect(tx.message.header.numRequiredSignatures).toBe(1)
          expect(tx.message.staticAccountKeys[0]!.toBase58()).toBe(signer.publicKey.toBase58())
          tx.sign([signer])
          return (await sandboxCall(rpcUrl, "sendTransaction", [Buffer.from(tx.serialize()).toString("base64"), { encoding: "base64" }])) as string
        })
      const pendingWhen = (wallet: string, done: (data: any) => boolean) =>
        awaitPending({ url, vault: V, step: () => chain.step(1) }, wallet, done)

      // actions.json and the CORS preflight the specification asks for
      const rules = yield* fetchJson(`${url}/actions.json`)
      expect(rules.status).toBe(200)
      const json: ActionsJson = rules.body
      expect(json.rules).toEqual([{ pathPattern: "/actions/**", apiPath: "/actions/**" }])
      expect(rules.headers.get("access-control-allow-origin")).toBe("*")
      const preflight = yield* Effect.promise(() =>
        fetch(`${url}/actions/vault/${V}/deposit`, {
          method: "OPTIONS",
          headers: { origin: "https://dial.to", "access-control-request-method": "POST", "access-control-request-headers": "content-type" }
        })
      )
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get("access-control-allow-methods")).toBe(expected["Access-Control-Allow-Methods"])
      expect(preflight.headers.get("access-control-allow-headers")).toBe(expected["Access-Control-Allow-Headers"])
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*")

      // the deposit card: the vault's name, asset, after-fee APY line and the amount input with its minimum
      const cardResponse = yield* fetchJson(`${url}/actions/vault/${V}/deposit`)
      expect(cardResponse.status).toBe(200)
      expectActionHeaders(cardResponse)
      const card: ActionGetResponse = cardResponse.body
      expect(card.type).toBe("action")
      expect(card.icon).toBe(`${ORIGIN}/actions/icon.svg`)
      expect(card.title).toBe(`Deposit ${catalogEntryById(VAULT_ID)!.registry.token.displaySymbol} into ${catalogEntryById(VAULT_ID)!.registry.displayName}`)
      expect(card.description).toMatch(/APY after fees: /)
      expect(card.disabled).toBeUndefined()
      const [depositLink] = card.links!.actions
      expect(depositLink!.href).toBe(`/actions/vault/${V}/deposit?amount={amount}`)
      const [amountInput] = depositLink!.parameters!
      expect(amountInput).toMatchObject({ type: "number", name: "amount", required: true })
      if (vault().bundle.minDepositAmount > 0n) expect(amountInput!.min).toBe(Number(vault().bundle.minDepositAmount) / Number(unit))
      const icon = yield* Effect.promise(() => fetch(`${url}/actions/icon.svg`))
      expect(icon.status).toBe(200)
      expect(icon.headers.get("content-type")).toBe("image/svg+xml")
      expect(yield* Effect.promise(() => icon.text())).toContain("<svg")
      // a blink of the card, as the Actions library writes and reads it
      const link = new URL(`${ORIGIN}/actions/vault/${V}/deposit`)
      const actionUrl = encodeURL({ link })
      expect(actionUrl.protocol).toBe("solana-action:")
      expect(parseURL(actionUrl)).toMatchObject({ link })
      const blink = encodeURL({ blink: new URL("https://dial.to/"), action: { link } })
      expect(decodeURIComponent(blink.searchParams.get("action")!)).toBe(`solana-action:${link}`)

      // attribution on the card's link carries into its POST link
      const referred = yield* fetchJson(`${url}/actions/vault/${V}/deposit?referrer=${bob!.address}`)
      expect((referred.body as ActionGetResponse).links!.actions[0]!.href).toBe(`/actions/vault/${V}/deposit?amount={amount}&referrer=${bob!.address}`)

      // POST: the deposit transaction for Alice, signed and landed, then seen as a pending request
      const built = yield* post(withAmount(depositLink!.href, "100.5"), { account: alice!.address })
      expect(built.status).toBe(200)
      expectActionHeaders(built)
      const answer: ActionPostResponse = built.body
      expect(answer.type).toBe("transaction")
      expect(answer.message).toContain("Deposit 100.5")
      const depositNext = answer.links!.next
      expect(depositNext).toEqual({ type: "post", href: `/actions/vault/${V}/deposit/next` })
      const signature = yield* signAndSend(alice!.secretKey, (answer as { transaction: string }).transaction)
      const requested = yield* pendingWhen(alice!.address, (data) => data.deposits[0]?.amounts.gross === (1005n * unit / 10n).toString())
      expect(requested.deposits[0].stage).toBe("requested")
      // the chained action: the request as the projection sees it now
      const completedResponse = yield* post(depositNext.type === "post" ? depositNext.href : "", { account: alice!.address, signature })
      expect(completedResponse.status).toBe(200)
      const completed: CompletedAction = completedResponse.body
      expect(completed.type).toBe("completed")
      expect(completed.description).toContain("Pending deposit:")
      expect(completed.description).toContain(signature.slice(0, 8))

      // the keeper processes it: Alice has shares, and withdraws all through the withdraw card
      const keeperSend = (instruction: Parameters<typeof fromKitInstructions>[0][number]) =>
        chain.submit({ feePayer: keeper, instructions: fromKitInstructions([instruction]) })
      const target = { program: NTBUNDLE_PROGRAM_ID, bundle: V, keeper: keeper.address as Address, assetMint: mint }
      keeperSend(netPendingTransactionsIx(target))
      keeperSend(processDepositIx({ ...target, owner: alice!.address as Address }))
      yield* pendingWhen(alice!.address, (data) => data.deposits[0]?.stage === "processed")
      const withdrawCard: ActionGetResponse = (yield* fetchJson(`${url}/actions/vault/${V}/withdraw`)).body
      const withdrawAll = withdrawCard.links!.actions.find((action) => action.label === "Withdraw all")!
      expect(withdrawAll.href).toBe(`/actions/vault/${V}/withdraw?all=true`)
      const withdrawal = yield* post(withdrawAll.href, { account: alice!.address })
      expect(withdrawal.status).toBe(200)
      const withdrawalAnswer: ActionPostResponse = withdrawal.body
      yield* signAndSend(alice!.secretKey, (withdrawalAnswer as { transaction: string }).transaction)
      const withdrawing = yield* pendingWhen(alice!.address, (data) => data.withdrawals.length === 1)
      expect(withdrawing.withdrawals[0].stage).toBe("requested")

      // a policy refusal is an Actions error carrying the reason: Bob has no position to withdraw
      const refused = yield* post(`/actions/vault/${V}/withdraw?amount=1`, { account: bob!.address })
      expect(refused.status).toBe(422)
      expectActionHeaders(refused)
      expect(typeof refused.body.message).toBe("string")
      expect(refused.body.message.length).toBeGreaterThan(0)
      expect(refused.body.error).toBe("BUILD_REFUSED")

      // bad input: 4xx with a message a blink can show, never a 500
      const tooPrecise = yield* post(`/actions/vault/${V}/deposit?amount=1.${"1".repeat(decimals + 1)}`, { account: alice!.address })
      expect(tooPrecise.status).toBe(400)
      expect(tooPrecise.body.message).toContain(`${decimals} decimals`)
      expectActionHeaders(tooPrecise)
      const noAmount = yield* post(`/actions/vault/${V}/deposit`, { account: alice!.address })
      expect(noAmount.status).toBe(400)
      expect(noAmount.body.message).toContain("amount")
      const badAccount = yield* post(`/actions/vault/${V}/deposit?amount=1`, { account: "not-a-wallet" })
      expect(badAccount.status).toBe(400)
      expect(typeof badAccount.body.message).toBe("string")
      const unknownVault = yield* fetchJson(`${url}/actions/vault/${bob!.address}/deposit`)
      expect(unknownVault.status).toBe(404)
      expect(unknownVault.body.message).toContain(bob!.address)
      expectActionHeaders(unknownVault)
      const badCode = yield* fetchJson(`${url}/actions/vault/${V}/deposit?code=${encodeURIComponent("<script>")}`)
      expect(badCode.status).toBe(400)
    }).pipe(Effect.scoped), { timeout: 120_000 })
})

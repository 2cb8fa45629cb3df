import type { Address } from "@solana/kit"
import { Effect, Either, Exit, Layer, Option } from "effect"
import { Projection } from "../../../services/Projection.ts"
import { SolanaRpc } from "../../../services/SolanaRpc.ts"
import { UnknownVault } from "../../domain/builds/errors.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import { readPosition } from "../../domain/builds/projectedAccounts.ts"
import { formatTokenAmount } from "../amounts.ts"
import { Api } from "../Api.ts"
import { makeBuildFlow } from "../builds/buildFlow.ts"
import { BuildRefused } from "../builds/LegacyBuildsApi.ts"
import { implementGroup } from "../handlers.ts"
import { implementMiddleware } from "../middleware.ts"
import { lastCompletedDay } from "../history/utcDate.ts"
import { makeYieldApys, type YieldApys } from "../public/yieldApys.ts"
import { makeYieldCoverage } from "../public/yieldCoverage.ts"
import { ACTION_ICON_PATH } from "./actionIcon.ts"
import { type ActionKind, type CardContext, completedCard, depositCard, vaultFacts, type VaultFacts, withdrawCard } from "./actionCards.ts"
import { ActionsChain } from "./ActionsApi.ts"
import type { ActionPostResponse, ActionsJson } from "./actionSchemas.ts"
import { rawFromMajorUnits } from "./majorUnits.ts"
import type { RejectionReason } from "../../domain/builds/index.ts"

export interface ActionsOptions {
  /** The origin browsers reach the gateway at (PUBLIC_ORIGIN): icons must be absolute URLs. */
  readonly origin: URL
}

const ACTIONS_JSON: ActionsJson = { rules: [{ pathPattern: "/actions/**", apiPath: "/actions/**" }] }

const refused = (reasons: ReadonlyArray<RejectionReason>) =>
  new BuildRefused({
    code: "BUILD_REFUSED",
    rejectionReasons: reasons,
    message: reasons.map((reason) => reason.message).join("; ")
  })

const attributionQuery = (query: { readonly code?: string | undefined; readonly referrer?: string | undefined }): string =>
  query.code !== undefined ? `code=${encodeURIComponent(query.code)}` : query.referrer !== undefined ? `referrer=${query.referrer}` : ""

/**
 * `X-Blockchain-Ids`: the CAIP-2 id of the cluster the RPC serves (`solana:` and the first 32
 * characters of its genesis hash), asked once; until the node answers (or without a node, in
 * tests of the routes alone) the header is left out.
 */
export const ActionsChainLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const rpc = yield* Effect.serviceOption(SolanaRpc)
    if (Option.isNone(rpc)) return implementMiddleware(ActionsChain, () => Exit.succeed({}))
    let headers: ReadonlyArray<readonly [string, string]> | undefined
    const ask = rpc.value.call("getGenesisHash", []).pipe(
      Effect.map((hash) => (headers = [["x-blockchain-ids", `solana:${hash.slice(0, 32)}`]])),
      Effect.orElseSucceed(() => []),
      Effect.timeout("2 seconds"),
      Effect.orElseSucceed(() => [])
    )
    return implementMiddleware(ActionsChain, () =>
      headers !== undefined ? Exit.succeed({ headers }) : Effect.map(ask, (found) => ({ headers: found })))
  })
)

/** The Solana Actions routes: cards from the projection and the daily history, transactions from the v2 build flow. */
export const ActionsHandlersLive = (options: ActionsOptions) =>
  implementGroup(
    Api,
    "actions",
    Effect.gen(function*() {
      const projection = yield* Projection
      const flow = yield* makeBuildFlow
      const apys = yield* makeYieldApys
      const storedThrough = yield* makeYieldCoverage
      const iconUrl = new URL(ACTION_ICON_PATH, options.origin).href

      const factsOf = (vault: Address) =>
        Either.flatMap(projection.readSync((state) => state.vaults.get(vault)), (view) =>
          view === undefined ? Either.left(UnknownVault.at(vault)) : Either.right(vaultFacts(view)))

      /** The after-fee APYs of /public/yields, or null while the history cannot tell (never fails the card). */
      const apysOf = (vault: Address) =>
        Effect.gen(function*() {
          const { through, fees } = yield* projection.read((state: ProjectionState) => {
            const bundle = state.vaults.get(vault)!.bundle
            return {
              through: lastCompletedDay(state.asOf?.blockTime ?? null),
              fees: { managementFeeBps: bundle.managementFeeBps, performanceFeeBps: bundle.performanceFee }
            }
          })
          const stored = yield* storedThrough(through)
          return stored === null ? null : yield* apys.of(vault, stored, fees)
        }).pipe(
          Effect.catchAll((error) => Effect.as(Effect.logDebug("actions: no APY for the card", error), null as YieldApys | null))
        )

      const card = (vault: Address, query: Parameters<typeof attributionQuery>[0], render: typeof depositCard) =>
        Effect.gen(function*() {
          const facts = yield* factsOf(vault)
          const context: CardContext = { iconUrl, attributionQuery: attributionQuery(query) }
          return render(facts, yield* apysOf(vault), context)
        })

      const next = (vault: Address, kind: ActionKind) => ({ type: "post" as const, href: `/actions/vault/${vault}/${kind}/next` })

      const depositTransaction = (vault: Address, account: string, query: { readonly amount?: string | undefined; readonly code?: string | undefined; readonly referrer?: string | undefined }) =>
        Effect.gen(function*() {
          const facts = yield* factsOf(vault)
          const amount = yield* rawFromMajorUnits(query.amount, facts.decimals, facts.symbol)
          const { data } = yield* flow.deposit(vault, {
            userAddress: account,
            amountRaw: amount.toString(),
            ...(query.code === undefined ? {} : { code: query.code }),
            ...(query.referrer === undefined ? {} : { referrer: query.referrer })
          })
          if (!data.validation.accepted || !("transactionBase64" in data)) return yield* Effect.fail(refused(data.validation.rejectionReasons))
          const attribution = data.attribution === undefined
            ? ""
            : data.attribution.applied
            ? ` Attributed to builder ${data.attribution.referrer}.`
            : ` Not attributed to a builder (${data.attribution.reason}).`
          const answer: ActionPostResponse = {
            type: "transaction",
            transaction: data.transactionBase64,
            message: `Deposit ${tokens(facts, amount)} into ${facts.name}: fee ${tokens(facts, BigInt(data.feeAmountRaw))}, ` +
              `${tokens(facts, BigInt(data.netAmountRaw))} becomes shares when the vault's keeper processes the request.${attribution}`,
            links: { next: next(vault, "deposit") }
          }
          return answer
        })

      const withdrawTransaction = (vault: Address, account: string, query: { readonly amount?: string | undefined; readonly all?: "true" | undefined }) =>
        Effect.gen(function*() {
          const facts = yield* factsOf(vault)
          const size = query.all === "true" && query.amount === undefined
            ? { withdrawAll: true }
            : { amountRaw: (yield* rawFromMajorUnits(query.amount, facts.decimals, facts.symbol)).toString() }
          const { data } = yield* flow.withdraw(vault, { userAddress: account, ...size })
          if (!data.validation.accepted || !("transactionBase64" in data)) return yield* Effect.fail(refused(data.validation.rejectionReasons))
          const answer: ActionPostResponse = {
            type: "transaction",
            transaction: data.transactionBase64,
            message: `Request a withdrawal of ${data.sharesAmount} shares of ${facts.name}, about ` +
              `${tokens(facts, BigInt(data.estimatedNetAmountRaw))} after fees, paid out after the cooldown (about ${data.cooldownSeconds} s).`,
            links: { next: next(vault, "withdraw") }
          }
          return answer
        })

      const completed = (vault: Address, kind: ActionKind, account: string, signature: string) =>
        Effect.gen(function*() {
          const facts = yield* factsOf(vault)
          const position = yield* projection.readSync((state) => readPosition(state, state.programId, account as Address, vault))
          return completedCard(facts, kind, position, signature, { iconUrl, attributionQuery: "" })
        })

      return {
        actionsJson: () => Effect.succeed(ACTIONS_JSON),
        depositAction: ({ path, urlParams }) => card(path.vaultAddress, urlParams, depositCard),
        withdrawAction: ({ path, urlParams }) => card(path.vaultAddress, urlParams, withdrawCard),
        depositTransaction: ({ path, payload, urlParams }) => depositTransaction(path.vaultAddress, payload.account, urlParams),
        withdrawTransaction: ({ path, payload, urlParams }) => withdrawTransaction(path.vaultAddress, payload.account, urlParams),
        depositCompleted: ({ path, payload }) => completed(path.vaultAddress, "deposit", payload.account, payload.signature),
        withdrawCompleted: ({ path, payload }) => completed(path.vaultAddress, "withdraw", payload.account, payload.signature)
      }
    })
  )

const tokens = (facts: VaultFacts, raw: bigint): string => `${formatTokenAmount(raw, facts.decimals)} ${facts.symbol}`

/** The Actions routes and their chain-id middleware, as `serve` and the tests compose them. */
export const ActionsLive = (options: ActionsOptions) => Layer.merge(ActionsHandlersLive(options), ActionsChainLive)

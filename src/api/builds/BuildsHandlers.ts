import type { Address } from "@solana/kit"
import { Effect } from "effect"
import { Blockhash } from "../../../services/Blockhash.ts"
import { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { PriorityFees } from "../../../services/PriorityFees.ts"
import { Projection } from "../../../services/Projection.ts"
import { TokenBalances } from "../../../services/TokenBalances.ts"
import {
  buildDepositTransaction,
  buildWithdrawTransaction,
  codeToResolve,
  parseDepositPreviewQuery,
  parseDepositRequest,
  parseWithdrawPreviewQuery,
  parseWithdrawRequest,
  previewDeposit,
  previewWithdraw,
  UnknownVault
} from "../../domain/builds/index.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import { Api } from "../Api.ts"
import { implementGroup } from "../handlers.ts"
import { PreEncoded } from "../preEncoded.ts"

/** `{success: true, data}`, encoded directly: the build core's answers are plain JSON already. */
const answer = (data: unknown) => new PreEncoded(JSON.stringify({ success: true, data }))

/** Chain time of the projection (unix seconds); the wall clock before any block time is known. */
const chainNow = (state: ProjectionState): bigint =>
  BigInt(state.asOf?.blockTime ?? Math.floor(Date.now() / 1000))

const assetMintOf = (state: ProjectionState, vault: Address) => state.vaults.get(vault)?.bundle.assetAddress ?? null

/**
 * The builders: parse (400), check the vault exists (404) before any I/O, then the cached blockhash
 * and fee estimate, the code lookup (Postgres) and the user's token balance (the one RPC call), and
 * finally the pure build over the projection. Previews read the projection only.
 */
export const BuildsHandlersLive = implementGroup(
  Api,
  "builds",
  Effect.gen(function*() {
    const projection = yield* Projection
    const blockhashes = yield* Blockhash
    const fees = yield* PriorityFees
    const balances = yield* TokenBalances
    const codes = yield* BuilderCodes

    const vaultMint = (vault: Address) =>
      Effect.flatMap(projection.read((state) => assetMintOf(state, vault)), (mint) =>
        mint === null ? Effect.fail(UnknownVault.at(vault)) : Effect.succeed(mint))

    const context = Effect.all({
      blockhash: blockhashes.latest,
      defaultPriorityFeeMicroLamports: fees.microLamportsPerComputeUnit
    })

    return {
      deposit: ({ path, payload }) =>
        Effect.gen(function*() {
          const request = yield* parseDepositRequest(payload)
          const vault = path.vaultAddress
          const mint = yield* vaultMint(vault)
          const { blockhash, defaultPriorityFeeMicroLamports } = yield* context
          const code = codeToResolve(request)
          const balance = balances.ofAssociatedAccount(request.userAddress, mint)
          // the code lookup (Postgres) and the balance read (RPC) overlap; without a code no fiber is forked
          const [resolved, userTokenBalance] = code === null
            ? [null, yield* balance]
            : yield* Effect.all([codes.resolve(code), balance], { concurrency: 2 })
          const built = yield* projection.read((state) =>
            buildDepositTransaction({
              state,
              program: state.programId,
              blockhash,
              defaultPriorityFeeMicroLamports,
              now: chainNow(state),
              vaultAddress: vault,
              request,
              codeReferrer: resolved?.referrer ?? null,
              userTokenBalance
            })
          )
          return answer(yield* built)
        }),
      withdraw: ({ path, payload }) =>
        Effect.gen(function*() {
          const request = yield* parseWithdrawRequest(payload)
          yield* vaultMint(path.vaultAddress)
          const { blockhash, defaultPriorityFeeMicroLamports } = yield* context
          const built = yield* projection.read((state) =>
            buildWithdrawTransaction({
              state,
              program: state.programId,
              blockhash,
              defaultPriorityFeeMicroLamports,
              now: chainNow(state),
              vaultAddress: path.vaultAddress,
              request
            })
          )
          return answer(yield* built)
        }),
      previewDeposit: ({ path, urlParams }) =>
        Effect.gen(function*() {
          const request = yield* parseDepositPreviewQuery(urlParams)
          const preview = yield* projection.read((state) =>
            previewDeposit({
              state,
              vaultAddress: path.vaultAddress,
              now: chainNow(state),
              request,
              processingIntervalSeconds: null
            })
          )
          return answer(yield* preview)
        }),
      previewWithdraw: ({ path, urlParams }) =>
        Effect.gen(function*() {
          const request = yield* parseWithdrawPreviewQuery(urlParams)
          const preview = yield* projection.read((state) =>
            previewWithdraw({ state, vaultAddress: path.vaultAddress, now: chainNow(state), request })
          )
          return answer(yield* preview)
        })
    }
  })
)

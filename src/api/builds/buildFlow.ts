import type { Address } from "@solana/kit"
import { Effect, Either } from "effect"
import { Blockhash } from "../../../services/Blockhash.ts"
import { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { PriorityFees } from "../../../services/PriorityFees.ts"
import { Projection } from "../../../services/Projection.ts"
import { TokenBalances } from "../../../services/TokenBalances.ts"
import {
  buildDepositTransaction,
  buildWithdrawTransaction,
  codeToResolve,
  parseDepositRequest,
  parseWithdrawRequest,
  UnknownVault
} from "../../domain/builds/index.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import { makePreflight } from "./preflight.ts"

/** Chain time of the projection (unix seconds); the wall clock before any block time is known. */
export const chainNow = (state: ProjectionState): bigint => BigInt(state.asOf?.blockTime ?? Math.floor(Date.now() / 1000))

/**
 * The build path shared by the v2 builders and the legacy v1 instruction routes: parse (400), check
 * the vault exists (404) before any I/O, then the cached blockhash and fee estimate, the code lookup
 * (Postgres) and the user's token balance (the one RPC call), the pure build over the projection,
 * and, when simulation is on, the node's preflight of an accepted build (preflight.ts).
 */
export const makeBuildFlow = Effect.gen(function*() {
  const projection = yield* Projection
  const blockhashes = yield* Blockhash
  const fees = yield* PriorityFees
  const balances = yield* TokenBalances
  const codes = yield* BuilderCodes
  const preflight = yield* makePreflight

  // Synchronous reads (Either) where the step cannot suspend: each is one cheap step of the fiber
  // rather than an effect of its own.
  const vaultMint = (vault: Address) =>
    Either.flatMap(projection.readSync((state) => state.vaults.get(vault)?.bundle.assetAddress ?? null), (mint) =>
      mint === null ? Either.left(UnknownVault.at(vault)) : Either.right(mint))

  const deposit = (vault: Address, payload: unknown) =>
    Effect.gen(function*() {
      const request = yield* parseDepositRequest(payload)
      const mint = yield* vaultMint(vault)
      const blockhash = yield* blockhashes.latest
      const defaultPriorityFeeMicroLamports = yield* fees.microLamportsPerComputeUnit
      const code = codeToResolve(request)
      const balance = balances.ofAssociatedAccount(request.userAddress, mint)
      // the code lookup and the balance read overlap; without a code no fiber is forked
      const [resolved, userTokenBalance] = code === null
        ? [null, yield* balance]
        : yield* Effect.all([codes.resolve(code), balance], { concurrency: 2 })
      const built = yield* projection.readSync((state) =>
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
      return yield* preflight(yield* built)
    })

  const withdraw = (vault: Address, payload: unknown) =>
    Effect.gen(function*() {
      const request = yield* parseWithdrawRequest(payload)
      yield* vaultMint(vault)
      const blockhash = yield* blockhashes.latest
      const defaultPriorityFeeMicroLamports = yield* fees.microLamportsPerComputeUnit
      const built = yield* projection.readSync((state) =>
        buildWithdrawTransaction({ state, program: state.programId, blockhash, defaultPriorityFeeMicroLamports, now: chainNow(state), vaultAddress: vault, request })
      )
      return yield* preflight(yield* built)
    })

  return { deposit, withdraw }
})

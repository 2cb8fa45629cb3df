import type { Address } from "@solana/kit"
import { Effect, Either, Exit } from "effect"
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
  type BlockhashUnavailable,
  type DepositBuildResponse,
  type DepositRequest as ParsedDepositRequest,
  type MalformedRequest,
  type SimulationFailed,
  type WithdrawBuildResponse,
  type LatestBlockhash,
  parseWithdrawRequest,
  UnknownVault,
  type WithdrawRequest
} from "../../domain/builds/index.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import type { ProjectionUnavailable } from "../../domain/errors.ts"
import { makePreflight } from "./preflight.ts"
import type { AsOf } from "../schemas.ts"
import { stateAsOf } from "../vaults/vaultPath.ts"
import { mapSettled, settled } from "./settled.ts"
import { type BuildKind, countBuild } from "../../telemetry/buildCounts.ts"

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

  type Built<R> = Either.Either<Stamped<Either.Either<R, UnknownVault>>, ProjectionUnavailable>

  /** The build core's answer with the chain position of the state it read. */
  const stamp = <R>(state: ProjectionState, data: Either.Either<R, UnknownVault>): Stamped<Either.Either<R, UnknownVault>> => ({
    data,
    asOf: stateAsOf(state)
  })

  /** The build's answer after the preflight, settled (no fiber) when the preflight is (simulation off). */
  const finish = <R extends object>(kind: BuildKind, built: Built<R>): Effect.Effect<Stamped<R>, BuildFlowError> => {
    if (Either.isLeft(built)) return Either.left(built.left)
    const { data, asOf } = built.right
    if (Either.isLeft(data)) return Either.left(data.left)
    return mapSettled(preflight(data.right), (checked) => {
      countBuild(kind, checked)
      return { data: checked, asOf }
    })
  }

  const buildDeposit = (
    request: DepositRequest,
    blockhash: LatestBlockhash,
    defaultPriorityFeeMicroLamports: bigint,
    codeReferrer: Address | null,
    userTokenBalance: bigint | null
  ) =>
    finish(
      "deposit",
      projection.readSync((state) =>
        stamp(state, buildDepositTransaction({
          state,
          program: state.programId,
          blockhash,
          defaultPriorityFeeMicroLamports,
          now: chainNow(state),
          vaultAddress: request.vaultAddress,
          request: request.request,
          codeReferrer,
          userTokenBalance
        }))
      )
    )

  /**
   * A deposit: when every step answers at once (cached blockhash and fee, no code, no balance read
   * or a settled one) the answer is a settled value and no fiber runs; from the first step that
   * must wait on, the rest is an effect. Steps run in the same order either way.
   */
  const deposit = (vault: Address, payload: unknown): Effect.Effect<Stamped<DepositBuildResponse>, BuildFlowError> => {
    const parsed = parseDepositRequest(payload)
    if (Either.isLeft(parsed)) return Either.left(parsed.left)
    const mint = vaultMint(vault)
    if (Either.isLeft(mint)) return Either.left(mint.left)
    const request: DepositRequest = { vaultAddress: vault, request: parsed.right }
    const code = codeToResolve(parsed.right)
    const balance = balances.ofAssociatedAccount(parsed.right.userAddress, mint.right)
    const blockhash = settled(blockhashes.latest)
    const fee = blockhash !== undefined && Exit.isSuccess(blockhash) ? settled(fees.microLamportsPerComputeUnit) : undefined
    const balanceNow = code === null && fee !== undefined && Exit.isSuccess(fee) ? settled(balance) : undefined
    if (blockhash !== undefined && Exit.isFailure(blockhash)) return Exit.failCause(blockhash.cause)
    if (fee !== undefined && Exit.isFailure(fee)) return Exit.failCause(fee.cause)
    if (blockhash !== undefined && fee !== undefined && balanceNow !== undefined && Exit.isSuccess(balanceNow)) {
      return buildDeposit(request, blockhash.value, fee.value, null, balanceNow.value)
    }
    return Effect.gen(function*() {
      const latest = yield* blockhashes.latest
      const defaultPriorityFeeMicroLamports = yield* fees.microLamportsPerComputeUnit
      // the code lookup and the balance read overlap; without a code no fiber is forked
      const [resolved, userTokenBalance] = code === null
        ? [null, yield* balance]
        : yield* Effect.all([codes.resolve(code), balance], { concurrency: 2 })
      return yield* buildDeposit(request, latest, defaultPriorityFeeMicroLamports, resolved?.referrer ?? null, userTokenBalance)
    })
  }

  const buildWithdraw = (vault: Address, request: WithdrawRequest, blockhash: LatestBlockhash, defaultPriorityFeeMicroLamports: bigint) =>
    finish(
      "withdraw",
      projection.readSync((state) =>
        stamp(
          state,
          buildWithdrawTransaction({ state, program: state.programId, blockhash, defaultPriorityFeeMicroLamports, now: chainNow(state), vaultAddress: vault, request })
        )
      )
    )

  /** A withdrawal: settled like a deposit when the blockhash and fee answer at once. */
  const withdraw = (vault: Address, payload: unknown): Effect.Effect<Stamped<WithdrawBuildResponse>, BuildFlowError> => {
    const parsed = parseWithdrawRequest(payload)
    if (Either.isLeft(parsed)) return Either.left(parsed.left)
    const mint = vaultMint(vault)
    if (Either.isLeft(mint)) return Either.left(mint.left)
    const blockhash = settled(blockhashes.latest)
    const fee = blockhash !== undefined && Exit.isSuccess(blockhash) ? settled(fees.microLamportsPerComputeUnit) : undefined
    if (blockhash !== undefined && Exit.isFailure(blockhash)) return Exit.failCause(blockhash.cause)
    if (fee !== undefined && Exit.isFailure(fee)) return Exit.failCause(fee.cause)
    if (blockhash !== undefined && fee !== undefined) return buildWithdraw(vault, parsed.right, blockhash.value, fee.value)
    return Effect.gen(function*() {
      const latest = yield* blockhashes.latest
      const defaultPriorityFeeMicroLamports = yield* fees.microLamportsPerComputeUnit
      return yield* buildWithdraw(vault, parsed.right, latest, defaultPriorityFeeMicroLamports)
    })
  }

  return { deposit, withdraw }
})

/** An answer and the chain position (`asOf`) of the projection state it was computed from. */
export interface Stamped<A> {
  readonly data: A
  readonly asOf: AsOf
}

/** What a build can fail with (refusals are answers, not failures). */
type BuildFlowError = MalformedRequest | UnknownVault | ProjectionUnavailable | BlockhashUnavailable | SimulationFailed

interface DepositRequest {
  readonly vaultAddress: Address
  readonly request: ParsedDepositRequest
}

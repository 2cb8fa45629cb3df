// What deposit and withdrawal builds share: assembling the transaction and the frame of their answers.
import type { Address, Instruction } from "@solana/kit"
import { Either } from "effect"
import type { PositionFields } from "../../ntbundle/positionFields.ts"
import type { VaultView } from "../projection/state.ts"
import { assembleTransaction } from "./assemble.ts"
import type { BuildContext } from "./context.ts"
import { UnknownVault } from "./errors.ts"
import { readPosition } from "./projectedAccounts.ts"
import type { RejectionReason } from "./rejections.ts"
import { accepted, rejectedBecause, type BuiltTransaction, type Rejected, type Validation } from "./responses.ts"

/**
 * A build against the vault `input` names: UnknownVault when the projection has no such vault (the
 * one failure), else the build's answer (accepted or refused) from the vault and the user's position.
 */
export const buildInVault = <I extends BuildContext & { readonly vaultAddress: Address; readonly request: { readonly userAddress: Address } }, A>(
  input: I,
  answer: (input: I, view: VaultView, position: PositionFields | null) => A
): Either.Either<A, UnknownVault> => {
  const view = input.state.vaults.get(input.vaultAddress)
  if (view === undefined) return Either.left(UnknownVault.at(input.vaultAddress))
  return Either.right(answer(input, view, readPosition(input.state, input.program, input.request.userAddress, input.vaultAddress)))
}

/** The build's transaction, at the request's priority fee or else the service's estimate. */
export const assembleForRequest = (
  input: BuildContext,
  request: { readonly userAddress: Address; readonly priorityFeeMicroLamports: bigint | null },
  instructions: ReadonlyArray<Instruction>
): BuiltTransaction =>
  assembleTransaction({
    user: request.userAddress,
    blockhash: input.blockhash,
    priorityFeeMicroLamports: request.priorityFeeMicroLamports ?? input.defaultPriorityFeeMicroLamports,
    instructions
  })

/** A refused build: its target and the reasons (an answer, not an error). */
export const rejectedBuild = (
  input: { readonly vaultAddress: Address; readonly request: { readonly userAddress: Address } },
  reasons: ReadonlyArray<RejectionReason>
): Rejected => ({ vaultAddress: input.vaultAddress, userAddress: input.request.userAddress, validation: rejectedBecause(reasons) })

/** A response type's fields, assignable once in a constructor. */
export type Fields<T> = { -readonly [K in keyof T]: T[K] }

type AcceptedHead = Fields<BuiltTransaction> & { vaultAddress: string; userAddress: string; validation: Validation & { readonly accepted: true } }

/**
 * Assigns the fields every accepted build answers with, in wire order, to a new answer (from its
 * kind's constructor, which assigns its own fields after them). A constructor rather than a spread
 * literal: each answer is one object with every field in place, built in one go.
 */
export const acceptedHead = (answer: AcceptedHead, vaultAddress: string, userAddress: string, transaction: BuiltTransaction): void => {
  answer.vaultAddress = vaultAddress
  answer.userAddress = userAddress
  answer.validation = accepted
  answer.transactionBase64 = transaction.transactionBase64
  answer.instructions = transaction.instructions
  answer.blockhash = transaction.blockhash
  answer.lastValidBlockHeight = transaction.lastValidBlockHeight
  answer.signers = transaction.signers
  answer.computeUnitLimit = transaction.computeUnitLimit
  answer.priorityFeeMicroLamports = transaction.priorityFeeMicroLamports
  answer.simulation = transaction.simulation
}

import { Either } from "effect"
import { decodeInstructionData, type InstructionName } from "../../ntbundle/instructions.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID } from "../programs/ids.ts"
import type { InvocationContext, ProgramHandler } from "../runtime/program.ts"
import { anchorFail } from "./anchorErrors.ts"
import type { HandlerTable, InstructionHandler } from "./handler.ts"
import { depositHandlers } from "./depositHandlers.ts"
import { feeHandlers } from "./feeHandlers.ts"
import { managerHandlers } from "./managerHandlers.ts"
import { positionHandlers } from "./positionHandlers.ts"
import { referrerHandlers } from "./referrerHandlers.ts"
import { switchHandlers } from "./switchHandlers.ts"
import { withdrawalHandlers } from "./withdrawalHandlers.ts"

/**
 * The sandbox's model of the ntbundle program: real instruction encodings (decoded with
 * `src/ntbundle`), the IDL's account lists checked as Anchor checks them, accounts read and
 * written in their real layouts, tokens moved by CPI to SPL Token, events logged with `emit!`'s
 * `Program data:` lines, failures as the program's Anchor error codes.
 *
 * It is a model, not the program. Where the fact sheet (§13) leaves behaviour unknown, it
 * assumes, and each handler module says how; the main assumptions:
 * - Deposit cycle: fee = ceil(gross × effective bps / 10000) to the treasury at request time, net
 *   to the pending token account; a second request before processing is a top-up. Netting moves
 *   the cycle's pending tokens to the vault's asset account (refund_deposit pays from there, per
 *   its IDL accounts) and blocks new requests (NettingAlreadyDone) until every netted deposit is
 *   processed or refunded. process_deposit mints `net × total_shares / total_equity` shares (the
 *   net amount when the vault is empty) at the processing-time price, adds the net amount to
 *   `bundle_underlying_balance`, `net_deposits` and, for a referred user, the builder's
 *   `referred_net_deposits`. `last_total_shares_minted` is the total minted in the last cycle.
 * - `bundle_underlying_balance` is what the vault's asset token account holds for shareholders
 *   (netted but unprocessed deposits are held there on top of it).
 * - Withdrawals: the request moves shares to `pending_shares` (still in total_shares); one in
 *   flight per user; refused while a deposit is pending; `withdrawal_delay` counts from the last
 *   deposit request. Processing pays the value at the processing-time price minus a withdrawal
 *   fee rounded up, and lowers `net_deposits` and the builder's `referred_net_deposits` by the
 *   gross value. A request before the availability time, for users and builders alike, fails
 *   with WithdrawalDelayNotMet.
 * - The keeper passes a referred user's ReferrerAccount as the first remaining account of
 *   process_deposit, process_withdrawal, refund_deposit and apply_fees_to_user.
 * - Eligibility failures without a dedicated error (self-referral, manager as referrer, an
 *   inactive builder) fail with UnauthorizedReferrerAction; a missing ReferrerAccount with
 *   ReferrerAccountMissing; a builder without its own position with ReferrerDepositTooLow.
 * - initialize_bundle_depositor requires payer = authority (PayerNotAuthority).
 * - Bundle accounts are not checked against a PDA of their name: scenario vaults live at the
 *   public registry's addresses, whose name seeds are not public.
 * - Switches (request_bundle_switch, process_switch): see `switchHandlers.ts`; the switched amount
 *   lands in the target as a pending deposit.
 * - Instructions the scenarios never need (strategies, distribution, user fee
 *   overrides, ...) are not modelled and fail with InstructionFallbackNotFound.
 */
const HANDLERS: HandlerTable = {
  ...positionHandlers,
  ...depositHandlers,
  ...withdrawalHandlers,
  ...switchHandlers,
  ...referrerHandlers,
  ...feeHandlers,
  ...managerHandlers
}

/** Compute units charged per modelled instruction (fixed, in the range of the real program's costs). */
const BASE_COMPUTE_UNITS = 8_000

export interface NtbundleProgramOptions {
  readonly programId?: string
}

export const createNtbundleProgram = (options: NtbundleProgramOptions = {}): ProgramHandler => ({
  programId: options.programId ?? DEFAULT_NTBUNDLE_PROGRAM_ID,
  name: "ntbundle",
  kind: "bpf",
  baseComputeUnits: BASE_COMPUTE_UNITS,
  execute: (context: InvocationContext) => {
    const decoded = decodeInstructionData(context.instruction.data)
    if (Either.isLeft(decoded)) {
      const unknown = decoded.left.reason === "UNKNOWN_DISCRIMINATOR" || context.instruction.data.length < 8
      return anchorFail(unknown ? "InstructionFallbackNotFound" : "InstructionDidNotDeserialize")
    }
    const { name, args } = decoded.right
    const handler = HANDLERS[name] as InstructionHandler<InstructionName> | undefined
    if (handler === undefined) {
      context.log(`sandbox model: instruction ${name} is not modelled`)
      return anchorFail("InstructionFallbackNotFound")
    }
    handler(context, args as never)
  }
})

export const MODELLED_INSTRUCTIONS: ReadonlyArray<InstructionName> = Object.keys(HANDLERS) as Array<InstructionName>

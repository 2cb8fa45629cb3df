// The Solana Actions cards of a vault: what a blink shows before (GET) and after (the chain's
// callback) a deposit or withdrawal. Pure: the handler reads the projection and the history.
import { catalogEntryByAddress } from "../../domain/catalog.ts"
import type { VaultView } from "../../domain/projection/state.ts"
import { totalEquity } from "../../ntbundle/math.ts"
import type { PositionFields } from "../../ntbundle/positionFields.ts"
import { formatTokenAmount } from "../amounts.ts"
import type { YieldApys } from "../public/yieldApys.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import type { ActionGetResponse, CompletedAction, LinkedAction } from "./actionSchemas.ts"

export type ActionKind = "deposit" | "withdraw"

/** What the cards say about a vault, read from its projected accounts and the public catalog. */
export interface VaultFacts {
  readonly address: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number
  readonly minDeposit: bigint
  /** Net deposits the cap still takes; null without a cap (or before the oracle is known). */
  readonly capRoom: bigint | null
  readonly paused: boolean
  readonly depositFeeBps: number
  readonly withdrawalFeeBps: number
  readonly withdrawalDelaySeconds: bigint
}

export const vaultFacts = (view: VaultView): VaultFacts => {
  const { bundle, oracle, temp } = view
  const asset = assetOf(view)
  const catalog = catalogEntryByAddress(view.address)
  const committed = oracle === null ? null : totalEquity({ bundle, oracle }) + (temp?.cumulativePendingDeposits ?? 0n)
  return {
    address: view.address,
    name: catalog?.registry.displayName ?? `vault ${view.address.slice(0, 8)}`,
    symbol: asset.symbol ?? "tokens",
    decimals: asset.decimals,
    minDeposit: bundle.minDepositAmount,
    capRoom: bundle.maxDepositAmount === 0n || committed === null
      ? null
      : bundle.maxDepositAmount > committed ? bundle.maxDepositAmount - committed : 0n,
    paused: temp?.pausedDepositsWithdrawals ?? false,
    depositFeeBps: bundle.depositFee,
    withdrawalFeeBps: bundle.withdrawalFee,
    withdrawalDelaySeconds: bundle.withdrawalDelay
  }
}

export interface CardContext {
  /** Absolute URL of the icon. */
  readonly iconUrl: string
  /** `?code=...` or `?referrer=...` of the GET, carried into the POST links (attribution). */
  readonly attributionQuery: string
}

const percent = (fraction: number): string => `${(fraction * 100).toFixed(2)} %`
const bps = (value: number): string => `${(value / 100).toFixed(2).replace(/\.?0+$/, "")} %`

const apyText = (apys: YieldApys | null): string => {
  if (apys === null || (apys.apy30dAfterFees === null && apys.apy7dAfterFees === null)) {
    return "APY after fees: not enough history yet."
  }
  const parts = [
    apys.apy30dAfterFees === null ? null : `${percent(apys.apy30dAfterFees)} (30 days)`,
    apys.apy7dAfterFees === null ? null : `${percent(apys.apy7dAfterFees)} (7 days)`
  ].filter((part) => part !== null)
  return `APY after fees: ${parts.join(", ")}.`
}

// The Actions specification types bounds as JSON numbers: a display hint for the input, computed
// from the exact decimal text (the amount itself travels as text and is parsed exactly).
const bound = (raw: bigint, decimals: number): number => Number(formatTokenAmount(raw, decimals))

const amountParameter = (facts: VaultFacts, label: string, min: bigint | null, max: bigint | null): NonNullable<LinkedAction["parameters"]>[number] => ({
  type: "number",
  name: "amount",
  label,
  required: true,
  ...(min === null || min === 0n ? {} : { min: bound(min, facts.decimals) }),
  ...(max === null ? {} : { max: bound(max, facts.decimals) }),
  pattern: facts.decimals === 0 ? "^[0-9]+$" : `^[0-9]+(\\.[0-9]{1,${facts.decimals}})?$`,
  patternDescription: `an amount of ${facts.symbol} with at most ${facts.decimals} decimals`
})

const href = (facts: VaultFacts, kind: ActionKind, query: string, context: CardContext): string => {
  const attribution = kind === "deposit" && context.attributionQuery !== "" ? `&${context.attributionQuery}` : ""
  return `/actions/vault/${facts.address}/${kind}?${query}${attribution}`
}

const pausedState = (facts: VaultFacts) =>
  facts.paused ? { disabled: true, error: { message: `${facts.name}: deposits and withdrawals are paused` } } : {}

export const depositCard = (facts: VaultFacts, apys: YieldApys | null, context: CardContext): ActionGetResponse => {
  const min = facts.minDeposit > 0n ? ` Minimum ${formatTokenAmount(facts.minDeposit, facts.decimals)} ${facts.symbol}.` : ""
  const fee = facts.depositFeeBps > 0 ? ` Deposit fee ${bps(facts.depositFeeBps)}.` : ""
  return {
    type: "action",
    icon: context.iconUrl,
    title: `Deposit ${facts.symbol} into ${facts.name}`,
    description: `${apyText(apys)} Deposit ${facts.symbol}; the vault's keeper turns the request into shares at its next processing.${min}${fee}`,
    label: "Deposit",
    ...pausedState(facts),
    links: {
      actions: [{
        type: "transaction",
        label: `Deposit ${facts.symbol}`,
        href: href(facts, "deposit", "amount={amount}", context),
        parameters: [amountParameter(facts, `Amount of ${facts.symbol}`, facts.minDeposit, facts.capRoom)]
      }]
    }
  }
}

export const withdrawCard = (facts: VaultFacts, apys: YieldApys | null, context: CardContext): ActionGetResponse => {
  const fee = facts.withdrawalFeeBps > 0 ? ` Withdrawal fee ${bps(facts.withdrawalFeeBps)}.` : ""
  return {
    type: "action",
    icon: context.iconUrl,
    title: `Withdraw ${facts.symbol} from ${facts.name}`,
    description: `${apyText(apys)} Request a withdrawal; the vault pays it out after its cooldown.${fee}`,
    label: "Withdraw",
    ...pausedState(facts),
    links: {
      actions: [
        {
          type: "transaction",
          label: `Withdraw ${facts.symbol}`,
          href: href(facts, "withdraw", "amount={amount}", context),
          parameters: [amountParameter(facts, `Value in ${facts.symbol}`, null, null)]
        },
        { type: "transaction", label: "Withdraw all", href: href(facts, "withdraw", "all=true", context) }
      ]
    }
  }
}

/** The end of the chain: the request as the projection sees it now (it may not have seen the transaction yet). */
export const completedCard = (
  facts: VaultFacts,
  kind: ActionKind,
  position: PositionFields | null,
  signature: string,
  context: CardContext
): CompletedAction => {
  const sent = `Transaction ${signature.slice(0, 8)}… confirmed.`
  const pending = kind === "deposit"
    ? position !== null && position.pendingDeposit > 0n
      ? ` Pending deposit: ${formatTokenAmount(position.pendingDeposit, facts.decimals)} ${facts.symbol}, waiting for the vault's keeper to process it into shares.`
      : " The gateway has not seen the request yet; it shows as pending within seconds."
    : position !== null && position.pendingShares > 0n
    ? ` Pending withdrawal: ${position.pendingShares} shares, paid out after the cooldown.`
    : " The gateway has not seen the request yet; it shows as pending within seconds."
  return {
    type: "completed",
    icon: context.iconUrl,
    title: kind === "deposit" ? `Deposit requested: ${facts.name}` : `Withdrawal requested: ${facts.name}`,
    description: `${sent}${pending}`,
    label: kind === "deposit" ? "Deposit requested" : "Withdrawal requested"
  }
}

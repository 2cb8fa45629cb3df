import { Either } from "effect"
import type { UsdPrice } from "../domain/usdPrice.ts"
import type { ProjectionState } from "../domain/projection/state.ts"
import type { ProjectionStatus } from "../domain/status.ts"
import { StatusBody, toStatusBody } from "../api/system/statusBody.ts"
import { Balance, toBalance } from "../api/users/balance.ts"
import { ReferrerSummary, toReferrerVaultSummary } from "../api/referrers/ReferrerSummary.ts"
import type { Address } from "../api/schemas.ts"
import { referrerVaults } from "../domain/reporting/referrerVaults.ts"
import { findPosition } from "../api/users/positionOf.ts"
import { stateAsOf } from "../api/vaults/vaultPath.ts"
import { toVaultRecord } from "../api/vaults/toVaultRecord.ts"
import { VaultRecord } from "../api/vaults/VaultRecord.ts"
import { shapeEncoder } from "./shapeEncoder.ts"
import type { Topic } from "./topics.ts"

// The REST reads' success schemas, compiled to plain projections (same output as Schema.encodeSync).
const encodeVault = shapeEncoder(VaultRecord)
const encodeBalance = shapeEncoder(Balance)
const encodeStatus = shapeEncoder(StatusBody)
const encodeReferrer = shapeEncoder(ReferrerSummary)

/**
 * The bytes of the wallet's position in the vault, the one `findPosition` of the REST read chooses
 * (the first of the wallet's positions, in index order, whose vault is that one), read without
 * decoding any: the raw account carries its resolved vault, and every position the projection keeps
 * has the full layout (accountKind), so the first match is the one that decodes.
 */
export const positionDataIn = (state: ProjectionState, vault: string, wallet: string): Uint8Array | null => {
  for (const address of state.positionsByOwner.get(wallet)) {
    const raw = state.accounts.get(address)
    if (raw !== undefined && raw.vault === vault) return raw.data
  }
  return null
}

/** A topic's value as the REST read encodes it (its `data`), with the read's `asOf`. */
export interface TopicValue {
  readonly asOf: unknown
  readonly data: unknown
}

/** Undefined when the topic's vault does not exist (the REST read's 404). */
export const dataTopicValue = (
  state: ProjectionState,
  topic: Topic,
  priceOf: (mint: string) => UsdPrice | null
): TopicValue | undefined => {
  const asOf = stateAsOf(state)
  switch (topic.kind) {
    case "vault": {
      const view = state.vaults.get(topic.vault)
      return view === undefined ? undefined : { asOf, data: encodeVault(toVaultRecord(view, state.asOf, priceOf)) }
    }
    case "user": {
      const view = state.vaults.get(topic.vault)
      if (view === undefined) return undefined
      const position = Either.getOrNull(findPosition(state, view, topic.wallet))
      return { asOf, data: position === null ? null : encodeBalance(toBalance(view, position, state.asOf, priceOf)) }
    }
    case "referrer":
      return {
        asOf,
        data: encodeReferrer({
          referrer: topic.referrer as Address,
          vaults: referrerVaults(state, topic.referrer).map((vault) => toReferrerVaultSummary(vault, priceOf))
        })
      }
    case "slots":
      return { asOf, data: asOf }
    case "status":
      return undefined
  }
}

export const statusValue = (status: ProjectionStatus): TopicValue => ({
  asOf: status.asOf,
  data: encodeStatus(toStatusBody(status))
})

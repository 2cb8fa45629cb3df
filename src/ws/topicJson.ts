import type { UsdPrice } from "../domain/usdPrice.ts"
import { stateAsOf } from "../api/vaults/vaultPath.ts"
import type { ProjectionState } from "../domain/projection/state.ts"
import { BalanceJsonWriter } from "./balanceJson.ts"
import { ReferrerJsonCache } from "./referrerJson.ts"
import { dataTopicValue, positionDataIn } from "./snapshots.ts"
import type { Topic } from "./topics.ts"

/** A topic's value as the JSON of its `data` (what an update carries), with the read's `asOf`. */
export interface TopicJson {
  readonly asOf: unknown
  readonly json: string
}

/**
 * The fan-out's read of a topic: the same `data` as `dataTopicValue`, already as JSON (the hub
 * compares it with the last one sent), built from kept pieces where a topic's value is large and
 * mostly unchanged between updates. Undefined when the topic's vault does not exist.
 */
export class TopicJsonReader {
  readonly #referrers = new ReferrerJsonCache()
  readonly #balances = new BalanceJsonWriter()

  constructor(private readonly priceOf: (mint: string) => UsdPrice | null) {}

  read(state: ProjectionState, topic: Topic): TopicJson | undefined {
    if (topic.kind === "referrer") {
      return { asOf: stateAsOf(state), json: this.#referrers.json(state, topic.referrer, this.priceOf) }
    }
    if (topic.kind === "user") {
      const view = state.vaults.get(topic.vault)
      if (view === undefined) return undefined
      const position = positionDataIn(state, view.address, topic.wallet)
      const json = position === null ? "null" : this.#balances.json(topic, view, position, state.asOf, this.priceOf)
      return { asOf: stateAsOf(state), json }
    }
    const value = dataTopicValue(state, topic, this.priceOf)
    return value === undefined ? undefined : { asOf: value.asOf, json: JSON.stringify(value.data) }
  }
}

import type { ProjectionChange } from "../domain/projection/changes.ts"
import type { TopicBook } from "./topicBook.ts"
import { referrerTopic, userTopic, vaultTopic } from "./topics.ts"

const REFERRER_PREFIX = "referrer:"

/**
 * A fan-out round's topics in publishing order: first those of the accounts that changed (a vault's
 * record, a position, a builder's own account), then the values those changes re-price (every
 * followed position in a changed vault, the summaries of its builders and of the builders whose
 * bound positions moved). A vault update can move dozens of followed values; the followers of the
 * account that changed should not wait behind them.
 */
export class TouchedTopics implements Iterable<string> {
  readonly direct = new Set<string>()
  readonly derived = new Set<string>()

  get isEmpty(): boolean {
    return this.direct.size === 0 && this.derived.size === 0
  }

  clear(): void {
    this.direct.clear()
    this.derived.clear()
  }

  /** Each topic once: the direct ones, then the derived ones not already among them. */
  *[Symbol.iterator](): Iterator<string> {
    yield* this.direct
    for (const topic of this.derived) if (!this.direct.has(topic)) yield topic
  }
}

/**
 * The followed topics whose value a run of changes may have moved, each once. A vault change moves
 * its record (direct), every followed position in it and the summary of every builder registered or
 * with bound users there (derived; `buildersOf`: the projection's per-vault builder index); a user
 * change moves that wallet's position (a bound position's builder gets its own `ReferrerChanged`,
 * marked `cohort`: derived); a builder change moves its summary.
 */
export const affectedTopics = (
  changes: Iterable<ProjectionChange>,
  book: TopicBook,
  buildersOf: (vault: string) => ReadonlySet<string>,
  into: TouchedTopics
): TouchedTopics => {
  for (const change of changes) {
    switch (change._tag) {
      case "VaultChanged": {
        const topic = vaultTopic(change.vault)
        if (book.isFollowed(topic)) into.direct.add(topic)
        for (const user of book.userTopicsOf(change.vault)) into.derived.add(user)
        const followed = book.referrerTopics()
        if (followed.size > 0) addBuildersOf(buildersOf(change.vault), followed, book, into.derived)
        break
      }
      case "UserChanged": {
        if (change.vault === null) break
        const topic = userTopic(change.vault, change.owner)
        if (book.isFollowed(topic)) into.direct.add(topic)
        break
      }
      case "ReferrerChanged": {
        const topic = referrerTopic(change.wallet)
        if (book.isFollowed(topic)) (change.cohort === true ? into.derived : into.direct).add(topic)
        break
      }
    }
  }
  return into
}

/** The followed builder topics among a vault's builders, walking the smaller of the two sets. */
const addBuildersOf = (builders: ReadonlySet<string>, followed: ReadonlySet<string>, book: TopicBook, into: Set<string>): void => {
  if (builders.size <= followed.size) {
    for (const wallet of builders) {
      const topic = referrerTopic(wallet)
      if (book.isFollowed(topic)) into.add(topic)
    }
  } else {
    for (const topic of followed) if (builders.has(topic.slice(REFERRER_PREFIX.length))) into.add(topic)
  }
}

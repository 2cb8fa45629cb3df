import type { ProjectionChange } from "../domain/projection/changes.ts"
import type { TopicBook } from "./topicBook.ts"
import { referrerTopic, userTopic, vaultTopic } from "./topics.ts"

const REFERRER_PREFIX = "referrer:"

/**
 * The followed topics whose value a run of changes may have moved, each once. A vault change moves
 * its record, every followed position in it and the summary of every builder registered or with
 * bound users there (`buildersOf`: the projection's per-vault builder index); a user change moves
 * that wallet's position (a bound position's builder gets its own `ReferrerChanged`); a builder
 * change moves its summary.
 */
export const affectedTopics = (
  changes: Iterable<ProjectionChange>,
  book: TopicBook,
  buildersOf: (vault: string) => ReadonlySet<string>,
  into: Set<string>
): Set<string> => {
  for (const change of changes) {
    switch (change._tag) {
      case "VaultChanged": {
        const topic = vaultTopic(change.vault)
        if (book.isFollowed(topic)) into.add(topic)
        for (const user of book.userTopicsOf(change.vault)) into.add(user)
        const followed = book.referrerTopics()
        if (followed.size > 0) addBuildersOf(buildersOf(change.vault), followed, book, into)
        break
      }
      case "UserChanged": {
        if (change.vault === null) break
        const topic = userTopic(change.vault, change.owner)
        if (book.isFollowed(topic)) into.add(topic)
        break
      }
      case "ReferrerChanged": {
        const topic = referrerTopic(change.wallet)
        if (book.isFollowed(topic)) into.add(topic)
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

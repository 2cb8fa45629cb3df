import type { ProjectionChange } from "../domain/projection/changes.ts"
import type { TopicBook } from "./topicBook.ts"
import { referrerTopic, userTopic, vaultTopic } from "./topics.ts"

/**
 * The followed topics whose value a run of changes may have moved, each once. A vault change moves
 * its record and every followed position in it; a user change moves that wallet's position. A
 * builder summary values fee shares and cohorts at the vaults' prices, and the changes do not say
 * which builders a vault or user change concerns: any of them moves every followed referrer topic.
 */
export const affectedTopics = (changes: Iterable<ProjectionChange>, book: TopicBook, into: Set<string>): Set<string> => {
  for (const change of changes) {
    switch (change._tag) {
      case "VaultChanged": {
        const topic = vaultTopic(change.vault)
        if (book.isFollowed(topic)) into.add(topic)
        for (const user of book.userTopicsOf(change.vault)) into.add(user)
        for (const referrer of book.referrerTopics()) into.add(referrer)
        break
      }
      case "UserChanged": {
        if (change.vault === null) break
        const topic = userTopic(change.vault, change.owner)
        if (book.isFollowed(topic)) into.add(topic)
        for (const referrer of book.referrerTopics()) into.add(referrer)
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

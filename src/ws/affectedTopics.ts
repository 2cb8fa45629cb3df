import type { ProjectionChange } from "../domain/projection/changes.ts"
import type { TopicBook } from "./topicBook.ts"
import { userTopic, vaultTopic } from "./topics.ts"

/**
 * The followed topics whose value a run of changes may have moved, each once. A vault change moves
 * its record and every followed position in it; a user change moves that wallet's position.
 * Referrer changes have no topic yet.
 */
export const affectedTopics = (changes: Iterable<ProjectionChange>, book: TopicBook, into: Set<string>): Set<string> => {
  for (const change of changes) {
    switch (change._tag) {
      case "VaultChanged": {
        const topic = vaultTopic(change.vault)
        if (book.isFollowed(topic)) into.add(topic)
        for (const user of book.userTopicsOf(change.vault)) into.add(user)
        break
      }
      case "UserChanged": {
        if (change.vault === null) break
        const topic = userTopic(change.vault, change.owner)
        if (book.isFollowed(topic)) into.add(topic)
        break
      }
      case "ReferrerChanged":
        break
    }
  }
  return into
}

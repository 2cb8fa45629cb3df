import { LastData } from "./lastData.ts"
import type { Topic } from "./topics.ts"

/**
 * Server-side bookkeeping of the followed topics: how many connections follow each one, the
 * per-topic sequence number (shared by every follower, since an update is encoded once), the data
 * last published (an update goes out only when the value differs), and which `user:` topics follow
 * each vault (a vault change moves the value of every position in it).
 */
export class TopicBook {
  readonly #followers = new Map<string, number>()
  readonly #topics = new Map<string, Topic>()
  readonly #seq = new Map<string, number>()
  readonly #userTopicsByVault = new Map<string, Set<string>>()
  readonly #referrerTopics = new Set<string>()
  /** The data last published on each followed topic. */
  readonly lastData = new LastData()

  follow(topic: Topic): void {
    const count = this.#followers.get(topic.name) ?? 0
    this.#followers.set(topic.name, count + 1)
    if (count === 0) this.#topics.set(topic.name, topic)
    if (count === 0 && topic.kind === "referrer") this.#referrerTopics.add(topic.name)
    if (count === 0 && topic.kind === "user") {
      let topics = this.#userTopicsByVault.get(topic.vault)
      if (topics === undefined) this.#userTopicsByVault.set(topic.vault, topics = new Set())
      topics.add(topic.name)
    }
  }

  unfollow(topic: Topic): void {
    const count = this.#followers.get(topic.name) ?? 0
    if (count > 1) {
      this.#followers.set(topic.name, count - 1)
      return
    }
    // Nobody follows it any more: forget its sequence too (a new follower starts a new baseline).
    this.#followers.delete(topic.name)
    this.#topics.delete(topic.name)
    this.#seq.delete(topic.name)
    this.lastData.delete(topic.name)
    this.#referrerTopics.delete(topic.name)
    if (topic.kind === "user") {
      const topics = this.#userTopicsByVault.get(topic.vault)
      topics?.delete(topic.name)
      if (topics?.size === 0) this.#userTopicsByVault.delete(topic.vault)
    }
  }

  isFollowed(name: string): boolean {
    return this.#followers.has(name)
  }

  /** The followed topic of that name (undefined when nobody follows it). */
  topic(name: string): Topic | undefined {
    return this.#topics.get(name)
  }

  /** Every followed topic. */
  topics(): IterableIterator<Topic> {
    return this.#topics.values()
  }

  currentSeq(name: string): number {
    return this.#seq.get(name) ?? 0
  }

  /** The seq of the topic's next update, recorded as current. */
  nextSeq(name: string): number {
    const seq = (this.#seq.get(name) ?? 0) + 1
    this.#seq.set(name, seq)
    return seq
  }

  /** Every followed `referrer:` topic. */
  referrerTopics(): ReadonlySet<string> {
    return this.#referrerTopics
  }

  userTopicsOf(vault: string): ReadonlySet<string> {
    return this.#userTopicsByVault.get(vault) ?? EMPTY
  }
}

const EMPTY: ReadonlySet<string> = new Set()

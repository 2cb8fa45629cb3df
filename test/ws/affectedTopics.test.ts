import { describe, expect, it } from "@effect/vitest"
import { affectedTopics, TouchedTopics } from "../../src/ws/affectedTopics.ts"
import { TopicBook } from "../../src/ws/topicBook.ts"
import { parseTopic } from "../../src/ws/topics.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"
const OTHER_VAULT = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9"
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const IN_VAULT = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"
const ELSEWHERE = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs"
const NOT_FOLLOWED = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"

const bookOf = (...names: ReadonlyArray<string>) => {
  const book = new TopicBook()
  for (const name of names) book.follow(parseTopic(name)!)
  return book
}

const followed = [
  `vault:${VAULT}`,
  `vault:${OTHER_VAULT}`,
  `user:${VAULT}:${WALLET}`,
  `user:${OTHER_VAULT}:${WALLET}`,
  `referrer:${IN_VAULT}`,
  `referrer:${ELSEWHERE}`
]

describe("affectedTopics", () => {
  const book = bookOf(...followed)
  // VAULT's builders: one followed, one not; OTHER_VAULT's: the other followed one.
  const buildersOf = (vault: string): ReadonlySet<string> =>
    vault === VAULT ? new Set([IN_VAULT, NOT_FOLLOWED]) : vault === OTHER_VAULT ? new Set([ELSEWHERE]) : new Set()
  const affected = (...changes: Parameters<typeof affectedTopics>[0] extends Iterable<infer C> ? Array<C> : never) =>
    [...affectedTopics(changes, book, buildersOf, new TouchedTopics())].sort()

  it("a vault change: its record, the followed positions in it and the followed builders of that vault only", () => {
    expect(affected({ _tag: "VaultChanged", vault: VAULT })).toEqual(
      [`referrer:${IN_VAULT}`, `user:${VAULT}:${WALLET}`, `vault:${VAULT}`].sort()
    )
    expect(affected({ _tag: "VaultChanged", vault: OTHER_VAULT })).toEqual(
      [`referrer:${ELSEWHERE}`, `user:${OTHER_VAULT}:${WALLET}`, `vault:${OTHER_VAULT}`].sort()
    )
  })

  it("walks whichever set is smaller: the same answer when the vault has more builders than are followed", () => {
    const many = new Set([IN_VAULT, ...Array.from({ length: 50 }, (_, i) => `builder-${i}`)])
    const touched = affectedTopics([{ _tag: "VaultChanged", vault: VAULT }], book, () => many, new TouchedTopics())
    expect([...touched].filter((topic) => topic.startsWith("referrer:"))).toEqual([`referrer:${IN_VAULT}`])
  })

  it("a user change moves only that position (its builder, if bound, comes as its own ReferrerChanged)", () => {
    expect(affected({ _tag: "UserChanged", account: "x", owner: WALLET, vault: VAULT })).toEqual([`user:${VAULT}:${WALLET}`])
    expect(affected({ _tag: "UserChanged", account: "x", owner: WALLET, vault: null })).toEqual([])
    expect(affected({ _tag: "UserChanged", account: "x", owner: NOT_FOLLOWED, vault: VAULT })).toEqual([])
  })

  it("a builder change moves its summary when followed; each topic once over a run of changes", () => {
    expect(affected({ _tag: "ReferrerChanged", wallet: ELSEWHERE, vault: VAULT })).toEqual([`referrer:${ELSEWHERE}`])
    expect(affected({ _tag: "ReferrerChanged", wallet: NOT_FOLLOWED, vault: VAULT })).toEqual([])
    expect(affected(
      { _tag: "VaultChanged", vault: VAULT },
      { _tag: "VaultChanged", vault: VAULT },
      { _tag: "ReferrerChanged", wallet: IN_VAULT, vault: VAULT }
    )).toHaveLength(3)
  })

  it("orders a round: the topics of the accounts that changed first, then the values they re-price, each once", () => {
    const touched = affectedTopics([
      { _tag: "VaultChanged", vault: VAULT },
      { _tag: "UserChanged", account: "x", owner: WALLET, vault: OTHER_VAULT },
      { _tag: "ReferrerChanged", wallet: IN_VAULT, vault: VAULT },
      { _tag: "VaultChanged", vault: OTHER_VAULT }
    ], book, buildersOf, new TouchedTopics())
    expect([...touched]).toEqual([
      `vault:${VAULT}`,
      `user:${OTHER_VAULT}:${WALLET}`,
      `referrer:${IN_VAULT}`,
      `vault:${OTHER_VAULT}`,
      // Derived: VAULT's position and OTHER_VAULT's builder; IN_VAULT and OTHER_VAULT's position went out above.
      `user:${VAULT}:${WALLET}`,
      `referrer:${ELSEWHERE}`
    ])
    // A builder whose bound position moved is re-priced, not changed itself.
    const cohortMove = affectedTopics([
      { _tag: "ReferrerChanged", wallet: ELSEWHERE, vault: VAULT, cohort: true },
      { _tag: "UserChanged", account: "x", owner: WALLET, vault: VAULT }
    ], book, buildersOf, new TouchedTopics())
    expect([...cohortMove]).toEqual([`user:${VAULT}:${WALLET}`, `referrer:${ELSEWHERE}`])
    expect(touched.isEmpty).toBe(false)
    touched.clear()
    expect(touched.isEmpty).toBe(true)
    expect([...touched]).toEqual([])
  })

  it("nothing when no builder topic is followed (the builder index is not even asked)", () => {
    const vaultsOnly = bookOf(`vault:${VAULT}`)
    let asked = 0
    affectedTopics([{ _tag: "VaultChanged", vault: VAULT }], vaultsOnly, () => (asked++, new Set([IN_VAULT])), new TouchedTopics())
    expect(asked).toBe(0)
  })
})

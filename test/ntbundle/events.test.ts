import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Either, FastCheck } from "effect"
import { createHash } from "node:crypto"
import golden from "../fixtures/ntbundle-golden.json" with { type: "json" }
import { toHex } from "../../src/ntbundle/bytes.ts"
import type { DecodeError } from "../../src/ntbundle/errors.ts"
import {
  decodeEvent,
  EVENT_DISCRIMINATORS,
  type EventName,
  encodeEvent,
  eventLogLine,
  eventsFromLogs,
  type NtEvent
} from "../../src/ntbundle/events.ts"
import { EVENT_LAYOUTS } from "../../src/ntbundle/generated/events.ts"
import type { FieldDescriptor, FieldType } from "../../src/ntbundle/generated/types.ts"
import { arbitraryOf, BIGINT_RANGES, structArbitrary } from "../support/fieldArbitraries.ts"


// Values built from descriptors are only typed as records; the descriptors guarantee the shape.
const eventOf = (name: EventName, data: Record<string, unknown>): NtEvent => ({ name, data }) as unknown as NtEvent

const rightOf = <A>(result: Either.Either<A, DecodeError>): A => {
  if (Either.isLeft(result)) throw new Error(`expected a decoded value, got ${result.left.reason}: ${result.left.message}`)
  return result.right
}
const leftOf = <A>(result: Either.Either<A, DecodeError>): DecodeError => {
  if (Either.isRight(result)) throw new Error("expected a DecodeError, got a decoded value")
  return result.left
}

const eventNames = Object.keys(EVENT_LAYOUTS) as Array<EventName>
const NTBUNDLE = golden.programId
const TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
const ROUTER = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4"
const USER = "EpZtPfeiyT7avVCuKfucUCj4Kaj81sF87aeLKNPghGvh" as Address
const BUNDLE = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address

const depositRequested: NtEvent = {
  name: "DepositRequested",
  data: {
    user: USER,
    amount: 100_000_000n,
    timestamp: 1_790_000_000n,
    bundleAccountKey: BUNDLE,
    toppingUp: false,
    grossAmount: 100_000_000n,
    feeAmount: 500_000n,
    netAmount: 99_500_000n,
    assetMint: USDC
  }
}
const allocated = (referredNetDepositsAfter: bigint | null): NtEvent => ({
  name: "Allocated",
  data: {
    from: USER,
    to: BUNDLE,
    amount: 99_500_000n,
    timestamp: 1_790_000_100n,
    bundleAccountKey: BUNDLE,
    netAmount: 99_500_000n,
    sharePrice: 1_010_000n,
    userSharesBefore: 0n,
    userSharesAfter: 98_514_851n,
    totalShares: 98_098_514_851n,
    referredNetDepositsAfter
  }
})
const referrerRegistered: NtEvent = {
  name: "ReferrerRegistered",
  data: { referrer: USER, bundleAccountKey: BUNDLE, timestamp: 1_790_000_200n }
}

describe("event codecs", () => {
  it("covers every IDL event with Anchor discriminators sha256('event:<Name>')[0..8]", () => {
    expect(eventNames).toHaveLength(61)
    for (const name of eventNames) {
      const expected = createHash("sha256").update(`event:${name}`).digest().subarray(0, 8)
      expect(toHex(EVENT_DISCRIMINATORS[name])).toBe(toHex(expected))
    }
  })

  it("encodes DepositRequested as discriminator + Borsh fields in IDL order", () => {
    const bytes = encodeEvent(depositRequested)
    expect(bytes).toHaveLength(8 + 32 + 8 + 8 + 32 + 1 + 8 + 8 + 8 + 32)
    expect(toHex(bytes.subarray(0, 8))).toBe("2321e58a74eec016")
    expect(toHex(bytes.subarray(40, 48))).toBe("00e1f50500000000") // amount, u64 LE
    expect(bytes[88]).toBe(0) // topping_up
    expect(rightOf(decodeEvent(bytes))).toEqual(depositRequested)
  })

  it("encodes Option<i128> as a 1-byte tag then the value, surfacing None as null", () => {
    const none = encodeEvent(allocated(null))
    const some = encodeEvent(allocated(-42n))
    expect(some.length - none.length).toBe(16)
    expect(none[none.length - 1]).toBe(0)
    expect(some[none.length - 1]).toBe(1)
    expect(rightOf(decodeEvent(none))).toEqual(allocated(null))
    expect(rightOf(decodeEvent(some))).toEqual(allocated(-42n))
  })

  it("rejects an Option tag other than 0 or 1", () => {
    const bytes = encodeEvent(allocated(null))
    bytes[bytes.length - 1] = 2
    expect(leftOf(decodeEvent(bytes)).reason).toBe("INVALID_DATA")
  })

  it("reports every truncation as TOO_SHORT and an unknown discriminator as such", () => {
    const bytes = encodeEvent(allocated(7n))
    for (let length = 0; length < bytes.length; length++) {
      expect(leftOf(decodeEvent(bytes.subarray(0, length))).reason).toBe("TOO_SHORT")
    }
    expect(leftOf(decodeEvent(new Uint8Array(bytes.length))).reason).toBe("UNKNOWN_DISCRIMINATOR")
  })

  it("writes the program's log line", () => {
    const line = eventLogLine(referrerRegistered)
    expect(line.startsWith("Program data: ")).toBe(true)
    const logged = Buffer.from(line.slice("Program data: ".length), "base64")
    expect(new Uint8Array(logged)).toEqual(encodeEvent(referrerRegistered))
  })
})

describe("eventsFromLogs", () => {
  const invoke = (program: string, depth: number) => `Program ${program} invoke [${depth}]`
  const success = (program: string) => `Program ${program} success`
  const consumed = (program: string) => `Program ${program} consumed 21000 of 200000 compute units`

  it("reads a deposit transaction's event and ignores other programs and plain logs", () => {
    const logs = [
      invoke("ComputeBudget111111111111111111111111111111", 1),
      success("ComputeBudget111111111111111111111111111111"),
      invoke(NTBUNDLE, 1),
      "Program log: Instruction: RequestDeposit",
      invoke(TOKEN, 2),
      "Program log: Instruction: Transfer",
      consumed(TOKEN),
      success(TOKEN),
      eventLogLine(depositRequested),
      consumed(NTBUNDLE),
      success(NTBUNDLE)
    ]
    expect(eventsFromLogs(logs, NTBUNDLE)).toEqual([{ index: 0, event: depositRequested }])
  })

  it("attributes data lines to the innermost open invocation, including a CPI into the program", () => {
    const logs = [
      invoke(ROUTER, 1),
      eventLogLine(referrerRegistered), // logged by the router itself: not ntbundle's
      invoke(NTBUNDLE, 2),
      eventLogLine(depositRequested),
      invoke(TOKEN, 3),
      eventLogLine(allocated(null)), // the token program's frame, even though the bytes decode
      success(TOKEN),
      eventLogLine(allocated(5n)),
      success(NTBUNDLE),
      eventLogLine(referrerRegistered), // back in the router
      success(ROUTER),
      invoke(NTBUNDLE, 1),
      eventLogLine(referrerRegistered),
      success(NTBUNDLE)
    ]
    expect(eventsFromLogs(logs, NTBUNDLE)).toEqual([
      { index: 0, event: depositRequested },
      { index: 1, event: allocated(5n) },
      { index: 2, event: referrerRegistered }
    ])
    expect(eventsFromLogs(logs, ROUTER).map((e) => e.event)).toEqual([referrerRegistered, referrerRegistered])
  })

  it("returns nothing when an invocation failed, since the transaction was rolled back", () => {
    const logs = [
      invoke(NTBUNDLE, 1),
      eventLogLine(depositRequested),
      success(NTBUNDLE),
      invoke(NTBUNDLE, 1),
      eventLogLine(referrerRegistered),
      invoke(TOKEN, 2),
      `Program ${TOKEN} failed: custom program error: 0x1`,
      `Program ${NTBUNDLE} failed: custom program error: 0x1`
    ]
    expect(eventsFromLogs(logs, NTBUNDLE)).toEqual([])
    expect(eventsFromLogs(logs.slice(0, 3), NTBUNDLE)).toEqual([{ index: 0, event: depositRequested }])
  })

  it("skips bad base64 and undecodable data without shifting the other events' indices", () => {
    const logs = [
      invoke(NTBUNDLE, 1),
      "Program data: !!not base64!!",
      "Program data: AAAA", // valid base64, too short for an event
      `Program data: ${Buffer.from(new Uint8Array(40)).toString("base64")}`, // unknown discriminator
      "Program data: I yHlinTuwBY=", // two chunks: not an Anchor event
      "Program data: ",
      eventLogLine(depositRequested),
      `${eventLogLine(referrerRegistered)}=`, // broken padding
      eventLogLine(referrerRegistered),
      success(NTBUNDLE)
    ]
    expect(eventsFromLogs(logs, NTBUNDLE)).toEqual([
      { index: 5, event: depositRequested },
      { index: 7, event: referrerRegistered }
    ])
  })

  it("ignores data outside any invocation and keeps the stack right when a closing line is missing", () => {
    const logs = [
      eventLogLine(depositRequested),
      invoke(NTBUNDLE, 1),
      invoke(TOKEN, 2), // its success line is missing (e.g. a hand-trimmed log)
      invoke(ROUTER, 2),
      success(ROUTER),
      eventLogLine(referrerRegistered),
      success(NTBUNDLE),
      eventLogLine(allocated(null))
    ]
    // After the router returns, the innermost open frame by depth is ntbundle (depth 1) again.
    expect(eventsFromLogs(logs, NTBUNDLE)).toEqual([{ index: 0, event: referrerRegistered }])
  })

  it("returns nothing for logs without the program", () => {
    expect(eventsFromLogs([], NTBUNDLE)).toEqual([])
    expect(eventsFromLogs([invoke(TOKEN, 1), eventLogLine(depositRequested), success(TOKEN)], NTBUNDLE)).toEqual([])
  })
})

describe("properties", () => {
  for (const name of eventNames) {
    it.prop(
      `${name}: random field values round-trip through encode, decode and the log line`,
      [structArbitrary(EVENT_LAYOUTS[name].fields)],
      ([data]) => {
        const event = eventOf(name, data)
        const bytes = encodeEvent(event)
        expect(toHex(bytes.subarray(0, 8))).toBe(toHex(EVENT_DISCRIMINATORS[name]))
        const decoded = rightOf(decodeEvent(bytes))
        expect(decoded).toEqual(event)
        expect(encodeEvent(decoded)).toEqual(bytes)
        const logs = [`Program ${NTBUNDLE} invoke [1]`, eventLogLine(event), `Program ${NTBUNDLE} success`]
        expect(eventsFromLogs(logs, NTBUNDLE)).toEqual([{ index: 0, event }])
      },
      { fastCheck: { numRuns: 40 } }
    )
  }

  const anyEvent = FastCheck.constantFrom(...eventNames).chain((name) =>
    structArbitrary(EVENT_LAYOUTS[name].fields).map((data) => encodeEvent(eventOf(name, data)))
  )
  const hostileBytes = FastCheck.oneof(
    FastCheck.uint8Array({ maxLength: 400 }),
    FastCheck.tuple(
      FastCheck.constantFrom(...eventNames.map((name) => EVENT_DISCRIMINATORS[name])),
      FastCheck.uint8Array({ maxLength: 400 })
    ).map(([discriminator, tail]) => new Uint8Array([...discriminator, ...tail])),
    FastCheck.tuple(anyEvent, FastCheck.nat()).map(([bytes, cut]) => bytes.subarray(0, cut % bytes.length))
  )

  it.prop(
    "decodeEvent never throws on hostile bytes, and what it accepts re-decodes to the same value",
    [hostileBytes],
    ([bytes]) => {
      const result = decodeEvent(bytes)
      if (Either.isLeft(result)) {
        expect(["TOO_SHORT", "UNKNOWN_DISCRIMINATOR", "INVALID_DATA"]).toContain(result.left.reason)
        return
      }
      expect(toHex(EVENT_DISCRIMINATORS[result.right.name])).toBe(toHex(bytes.subarray(0, 8)))
      expect(rightOf(decodeEvent(encodeEvent(result.right)))).toEqual(result.right)
    },
    { fastCheck: { numRuns: 3000 } }
  )

  it.prop(
    "every proper prefix of an encoded event is TOO_SHORT",
    [anyEvent, FastCheck.nat()],
    ([bytes, cut]) => {
      expect(leftOf(decodeEvent(bytes.subarray(0, cut % bytes.length))).reason).toBe("TOO_SHORT")
    },
    { fastCheck: { numRuns: 1000 } }
  )

  it.prop(
    "eventsFromLogs never throws on arbitrary log lines",
    [FastCheck.array(FastCheck.oneof(
      FastCheck.string(),
      FastCheck.constantFrom(`Program ${NTBUNDLE} invoke [1]`, `Program ${NTBUNDLE} success`, `Program ${TOKEN} invoke [2]`),
      hostileBytes.map((bytes) => `Program data: ${Buffer.from(bytes).toString("base64")}`)
    ), { maxLength: 30 })],
    ([logs]) => {
      const events = eventsFromLogs(logs, NTBUNDLE)
      expect(events.every((e, i) => i === 0 || e.index > (events[i - 1]?.index ?? -1))).toBe(true)
    },
    { fastCheck: { numRuns: 1000 } }
  )
})

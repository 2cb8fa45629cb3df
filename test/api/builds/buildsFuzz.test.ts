import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either, FastCheck, ParseResult, Schema } from "effect"
import { DepositBuildAnswer, WithdrawBuildAnswer } from "../../../src/api/builds/BuildsApi.ts"
import { gatewayForTest, serverUrl } from "../../../src/bench/support/httpTestServer.ts"
import { liveStatus } from "../../../src/bench/support/projectionTest.ts"
import { alice, builder, eligibleBuilder, makeWorld, vault, withSpecs } from "../../../src/bench/support/buildWorld.ts"

// Random bodies, well-formed and not, against both builders over HTTP: every answer is a 200, 400,
// 404 or 413 envelope; never a 5xx; every 200 is exactly the documented shape.
const world = makeWorld(withSpecs(eligibleBuilder, { positions: [{ owner: alice, fields: { shares: 5_000_000n } }] }))

const value = FastCheck.oneof(
  FastCheck.constantFrom(alice, builder, vault, "0", "1", "5000000", "18446744073709551615", "18446744073709551616", "-1", "1e6", "", " ", "ACME", true, false, null, 0, 1.5, -3),
  FastCheck.string(),
  FastCheck.bigInt({ min: 0n, max: 2n ** 70n }).map(String),
  FastCheck.array(FastCheck.integer(), { maxLength: 3 }),
  FastCheck.dictionary(FastCheck.string({ maxLength: 4 }), FastCheck.integer(), { maxKeys: 2 })
)
const key = FastCheck.constantFrom("userAddress", "amountRaw", "withdrawAll", "code", "referrer", "requireAttribution", "priorityFeeMicroLamports", "other", "__proto__", "constructor")
// close to valid: a user and an amount (or withdrawAll), plus at most one random extra field
const nearValid = FastCheck.record({
  userAddress: FastCheck.constantFrom(alice, builder, "x"),
  amountRaw: FastCheck.constantFrom("5000000", "2000000", "18446744073709551615", "0"),
  extra: FastCheck.option(FastCheck.tuple(key, value), { nil: undefined })
}).chain(({ userAddress, amountRaw, extra }) =>
  FastCheck.boolean().map((withdrawAll) => {
    const fields: Record<string, unknown> = withdrawAll ? { userAddress, withdrawAll: true } : { userAddress, amountRaw }
    if (extra !== undefined) fields[extra[0]] = extra[1]
    return JSON.stringify(fields)
  }))
const body = FastCheck.oneof(
  { weight: 4, arbitrary: nearValid },
  { weight: 6, arbitrary: FastCheck.dictionary(key, value, { maxKeys: 6 }).map((fields) => JSON.stringify(fields)) },
  { weight: 1, arbitrary: FastCheck.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: FastCheck.jsonValue({ maxDepth: 3 }).map((json) => JSON.stringify(json)) }
)
const route = FastCheck.constantFrom(`/v2/vault/${vault}/tx/deposit`, `/v2/vault/${vault}/tx/withdraw`, `/v2/vault/${builder}/tx/deposit`)

type Decode = (answer: unknown) => Either.Either<unknown, ParseResult.ParseError>
const documented: Record<"deposit" | "withdraw", Decode> = {
  deposit: Schema.decodeUnknownEither(DepositBuildAnswer, { onExcessProperty: "error" }),
  withdraw: Schema.decodeUnknownEither(WithdrawBuildAnswer, { onExcessProperty: "error" })
}

describe("builder fuzz", () => {
  layer(gatewayForTest({ initial: liveStatus(100), state: world.state, buildsPerMinute: 1_000_000 }), { excludeTestServices: true })((it) => {
    it.effect("3,000 random bodies: no 5xx, every answer an envelope", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const cases = FastCheck.sample(FastCheck.tuple(route, body), { numRuns: 3_000, seed: 8 })
        const statuses = new Map<number, number>()
        yield* Effect.forEach(
          cases,
          ([path, text]) =>
            Effect.promise(async () => {
              const response = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: text })
              const answer = (await response.json()) as { success: boolean; error?: string }
              statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
              expect(response.status, `${path} ${text}`).toBeLessThan(500)
              expect(typeof answer.success).toBe("boolean")
              if (!answer.success) expect(typeof answer.error).toBe("string")
              if (response.status === 200) {
                const decoded = documented[path.endsWith("deposit") ? "deposit" : "withdraw"](answer)
                if (Either.isLeft(decoded)) expect.fail(`${path} ${text}: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
              }
            }),
          { concurrency: 16, discard: true }
        )
        // the sample reaches both the 400 path and the builders
        expect(statuses.get(400) ?? 0).toBeGreaterThan(100)
        expect(statuses.get(200) ?? 0).toBeGreaterThan(10)
      }), 120_000)
  })
})

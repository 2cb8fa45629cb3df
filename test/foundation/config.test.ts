import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, LogLevel, Option, Redacted } from "effect"
import { appConfig, describeConfigError } from "../../src/config.ts"

const load = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(appConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("appConfig", () => {
  it.effect("has working defaults on an empty environment", () =>
    Effect.gen(function*() {
      const config = yield* Effect.flatMap(load({}), Either.match({ onLeft: Effect.die, onRight: Effect.succeed }))
      expect(config.host).toBe("127.0.0.1")
      expect(config.port).toBe(8080)
      expect(config.cluster).toBe("sandbox")
      expect(config.dataDir).toBe(".data")
      expect(config.logFormat).toBe("pretty")
      expect(config.logLevel).toEqual(LogLevel.Info)
      expect(Option.isNone(config.databaseUrl)).toBe(true)
    }))

  it.effect("defaults the cluster to mainnet when an RPC endpoint is configured", () =>
    Effect.gen(function*() {
      const config = yield* Effect.flatMap(
        load({ RPC_URL: "http://127.0.0.1:8899", DATABASE_URL: "postgres://u:p@127.0.0.1:5432/db" }),
        Either.match({ onLeft: Effect.die, onRight: Effect.succeed })
      )
      expect(config.cluster).toBe("mainnet")
      expect(Option.map(config.databaseUrl, Redacted.value)).toEqual(Option.some("postgres://u:p@127.0.0.1:5432/db"))
    }))

  const invalid: ReadonlyArray<[string, Record<string, string>]> = [
    ["PORT", { PORT: "abc" }],
    ["PORT", { PORT: "70000" }],
    ["CLUSTER", { CLUSTER: "testnet" }],
    ["LOG_FORMAT", { LOG_FORMAT: "xml" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["RPC_URL", { RPC_URL: "not a url" }],
    ["DATABASE_URL", { DATABASE_URL: "nope" }]
  ]
  for (const [variable, env] of invalid) {
    it.effect(`rejects a bad ${variable} with one line naming it`, () =>
      Effect.gen(function*() {
        const result = yield* load(env)
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) {
          const line = describeConfigError(result.left)
          expect(line).toContain(variable)
          expect(line).not.toContain("\n")
        }
      }))
  }
})

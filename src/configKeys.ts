import { Config, Option, Redacted } from "effect"
import type { Cluster } from "./config.ts"
import { KEY_PREFIXES } from "./domain/partnerKeys/apiKeyFormat.ts"

/** Partner key settings: the default per-key quota and, on the sandbox, the key to seed. */
export interface KeysConfig {
  readonly quotaLimit: number
  readonly quotaWindowSeconds: number
  /** Only on the sandbox: the partner key to seed instead of a new random one. */
  readonly sandboxPartnerKey: Option.Option<Redacted.Redacted<string>>
}

const positive = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: "Expected a whole number >= 1", validation: (n) => n >= 1 }),
    Config.withDefault(fallback)
  )

export const keysConfig = (cluster: Cluster): Config.Config<KeysConfig> =>
  Config.all({
    quotaLimit: positive("KEY_QUOTA_LIMIT", 1000),
    quotaWindowSeconds: positive("KEY_QUOTA_WINDOW_SECONDS", 600),
    sandboxPartnerKey: cluster === "sandbox"
      ? Config.option(
        Config.string("SANDBOX_PARTNER_KEY").pipe(
          Config.validate({
            message: `Expected a sandbox key starting with ${KEY_PREFIXES.sandbox}`,
            validation: (key) => key.startsWith(KEY_PREFIXES.sandbox) && key.length >= KEY_PREFIXES.sandbox.length + 16
          }),
          Config.map(Redacted.make)
        )
      )
      : Config.succeed(Option.none())
  })

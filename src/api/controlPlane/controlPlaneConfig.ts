import { Config } from "effect"
import type { Cluster } from "../../config.ts"
import type { Quota } from "../../../services/RateLimiter.ts"
import type { SessionLifetimes } from "../../../services/WalletSessions.ts"

/** How the control plane runs: its public origin, session lifetimes and the per-IP sign-in meter. */
export interface ControlPlaneSettings {
  /** `scheme://host[:port]` browsers use for the gateway: the SIWS domain and uri, and the only Origin accepted. */
  readonly origin: URL
  /** Cookie `Secure` and `__Host-` prefix: on when the origin is https. */
  readonly secureCookie: boolean
  readonly lifetimes: SessionLifetimes
  /** Nonce and verify requests per client IP. */
  readonly signInQuota: Quota
  readonly trustProxy: boolean
  /** `solana:mainnet` on mainnet; `solana:devnet` on devnet and on the sandbox (wallets know no sandbox chain). */
  readonly chainId: string
  readonly cluster: Cluster
}

const atLeastOne = (name: string, fallback: number) =>
  Config.integer(name).pipe(Config.withDefault(fallback), Config.validate({ message: "must be at least 1", validation: (n) => n >= 1 }))

export const chainIdOf = (cluster: Cluster) => (cluster === "mainnet" ? "solana:mainnet" : "solana:devnet")

/**
 * PUBLIC_ORIGIN (default `http://127.0.0.1:<PORT>`), SESSION_IDLE_MINUTES (30), SESSION_MAX_HOURS
 * (12), AUTH_RATE_LIMIT (30) per AUTH_RATE_WINDOW_SECONDS (60) per client IP, TRUST_PROXY.
 */
export const controlPlaneConfig = (cluster: Cluster, port: number): Config.Config<ControlPlaneSettings> =>
  Config.all({
    origin: Config.string("PUBLIC_ORIGIN").pipe(
      Config.withDefault(`http://127.0.0.1:${port}`),
      Config.validate({
        message: "Expected an http(s) origin such as https://gateway.example (no path)",
        validation: (text) => {
          if (!URL.canParse(text)) return false
          const url = new URL(text)
          return (url.protocol === "http:" || url.protocol === "https:") && (url.pathname === "/" || url.pathname === "") &&
            url.search === "" && url.hash === "" && url.username === "" && url.password === ""
        }
      }),
      Config.map((text) => new URL(new URL(text).origin))
    ),
    idleMinutes: atLeastOne("SESSION_IDLE_MINUTES", 30),
    maxHours: atLeastOne("SESSION_MAX_HOURS", 12),
    limit: atLeastOne("AUTH_RATE_LIMIT", 30),
    windowSeconds: atLeastOne("AUTH_RATE_WINDOW_SECONDS", 60),
    trustProxy: Config.boolean("TRUST_PROXY").pipe(Config.withDefault(false))
  }).pipe(
    Config.map(({ idleMinutes, limit, maxHours, origin, trustProxy, windowSeconds }) => ({
      origin,
      secureCookie: origin.protocol === "https:",
      lifetimes: { idleSeconds: idleMinutes * 60, maxSeconds: maxHours * 3600 },
      signInQuota: { limit, windowSeconds },
      trustProxy,
      chainId: chainIdOf(cluster),
      cluster
    }))
  )

/** The origin as browsers send it in `Origin`. */
export const originText = (settings: ControlPlaneSettings) => settings.origin.origin

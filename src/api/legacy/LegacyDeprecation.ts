import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import { Effect, Schema } from "effect"
import { catalogEntryById } from "../../domain/catalog.ts"
import { implementMiddleware } from "../middleware.ts"

/** Marks every legacy v1 answer deprecated (RFC 9745) and links it to its v2 successor (RFC 8288). */
export class LegacyDeprecation extends HttpApiMiddleware.Tag<LegacyDeprecation>()("LegacyDeprecation", {
  failure: Schema.Never
}) {}

const VAULT_PATH = /^\/api\/v1\/vault\/(\d{1,12})\/([a-z]+)\/?$/

/** The v2 route a legacy path maps to (spec §4.6); the vault list when the id is unknown. */
export const successorOf = (path: string): string => {
  const match = VAULT_PATH.exec(path)
  const entry = match === null ? null : catalogEntryById(Number(match[1]))
  if (match === null || entry === null) return "/v2/vaults"
  const suffix = match[2] === "config" ? "" : `/${match[2]}`
  return `/v2/vault/${entry.registry.address}${suffix}`
}

export const LegacyDeprecationLive = implementMiddleware(LegacyDeprecation, (request) =>
  Effect.succeed({
    headers: [
      ["deprecation", "true"],
      ["link", `<${successorOf(request.path)}>; rel="successor-version"`]
    ] as const
  }))

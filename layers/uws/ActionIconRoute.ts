import { Effect, Layer } from "effect"
import { ACTION_ICON_PATH, ACTION_ICON_SVG } from "../../src/api/actions/actionIcon.ts"
import { fixedBody, methodNotAllowed } from "./fixedRoutes.ts"
import { HttpServer } from "./HttpServer.ts"

/** `GET /actions/icon.svg`: the icon the Solana Actions cards name (an image, so not in the JSON contract). */
export const ActionIconRouteLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const server = yield* HttpServer
    server.route("GET", ACTION_ICON_PATH, fixedBody("image/svg+xml", Buffer.from(ACTION_ICON_SVG), "public, max-age=86400"))
    server.route("ANY", ACTION_ICON_PATH, methodNotAllowed(["GET"]))
  })
)

import { Effect, Layer } from "effect"
import { VERSION } from "../../src/version.ts"
import { HttpServer } from "./HttpServer.ts"
import { writeJson } from "./respond.ts"

const body = JSON.stringify({ status: "ok", version: VERSION })

/** `GET /health`: the process is up and serving HTTP (readiness of the data is `/ready`). */
export const HealthRouteLive = Layer.effectDiscard(
  Effect.map(HttpServer, ({ app }) => {
    app.get("/health", (res) => writeJson(res, 200, body, { "cache-control": "no-store" }))
  })
)

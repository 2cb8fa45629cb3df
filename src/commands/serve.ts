import { Effect, Either, Layer } from "effect"
import { DatabaseLive } from "../../layers/postgres/Database.ts"
import { ProjectionStartingLive } from "../../layers/memory/ProjectionStarting.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { DocsRoutesLive } from "../../layers/uws/DocsRoutes.ts"
import { HttpListenerLive, HttpServerLive } from "../../layers/uws/HttpServer.ts"
import { Api } from "../api/Api.ts"
import { SystemHandlersLive } from "../api/system/SystemHandlers.ts"
import { appConfig, describeConfigError } from "../config.ts"
import { LoggingLive } from "../logging.ts"
import { runMain } from "../runMain.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"

const HELP = `usage: vault-gateway serve

Runs the gateway. Configuration comes from the environment (see the README):
  HOST, PORT, DATABASE_URL, RPC_URL, RPC_WS_URL, CLUSTER, DATA_DIR, LOG_LEVEL, LOG_FORMAT
`

export const serve: Command = {
  run: async (args) => {
    if (args.includes("--help") || args.includes("-h")) {
      process.stdout.write(HELP)
      return 0
    }
    if (args.length > 0) {
      process.stderr.write(`vault-gateway serve: unexpected argument '${args[0]}'\n${HELP}`)
      return EXIT_USAGE
    }
    const config = await Effect.runPromise(Effect.either(appConfig))
    if (Either.isLeft(config)) {
      process.stderr.write(`vault-gateway: ${describeConfigError(config.left)}\n`)
      return EXIT_USAGE
    }
    const { host, port, databaseUrl, dataDir } = config.right
    const handlers = SystemHandlersLive.pipe(Layer.provide(ProjectionStartingLive))
    const routes = Layer.mergeAll(ApiRoutesLive(Api), DocsRoutesLive(Api)).pipe(Layer.provide(handlers))
    // Listen only once every route is registered.
    const http = HttpListenerLive({ host, port }).pipe(Layer.provide(routes), Layer.provideMerge(HttpServerLive))
    const app = http.pipe(Layer.provideMerge(DatabaseLive({ url: databaseUrl, dataDir })))
    return runMain(Layer.launch(app).pipe(Effect.provide(LoggingLive(config.right))))
  }
}

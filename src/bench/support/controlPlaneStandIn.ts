import { Effect, Exit, Layer } from "effect"
import { Api } from "../../api/Api.ts"
import { AuthApi } from "../../api/controlPlane/AuthApi.ts"
import { SessionRequired } from "../../api/controlPlane/errors.ts"
import { OrgApi } from "../../api/controlPlane/OrgApi.ts"
import { WalletSession } from "../../api/controlPlane/WalletSession.ts"
import { type GroupImplementation, groupImplementationTag, type GroupRuntime } from "../../api/handlers.ts"
import { type MiddlewareImplementation, middlewareImplementationTag, type MiddlewareRuntime } from "../../api/middleware.ts"

const notServed = () => Effect.die(new Error("the control plane is not served by this test gateway"))

const groupOf = (name: "auth" | "org", endpoints: Record<string, unknown>) =>
  Layer.succeed(groupImplementationTag(Api.identifier, name), {
    handlers: Object.fromEntries(Object.keys(endpoints).map((endpoint) => [endpoint, notServed]))
  } satisfies GroupRuntime)

const noSession: MiddlewareRuntime = {
  run: () => Exit.fail(new SessionRequired({ code: "SESSION_REQUIRED", message: "no control plane in this test gateway" }))
}

/**
 * The control-plane routes for test gateways that do not exercise them (no database): every session
 * is refused with 401 `SESSION_REQUIRED`, and the handlers behind it are never reached.
 */
export const ControlPlaneStandIn = Layer.mergeAll(
  groupOf("auth", AuthApi.endpoints),
  groupOf("org", OrgApi.endpoints),
  Layer.succeed(middlewareImplementationTag(WalletSession), noSession)
) as unknown as Layer.Layer<
  GroupImplementation<typeof Api.identifier, "auth"> | GroupImplementation<typeof Api.identifier, "org"> | MiddlewareImplementation<WalletSession>
>

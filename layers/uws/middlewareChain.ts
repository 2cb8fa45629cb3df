import { Context, Effect, Exit } from "effect"
import type { RequestInfo } from "../../src/api/handlers.ts"
import type { MiddlewarePassed, MiddlewareRuntime } from "../../src/api/middleware.ts"
import { isExitEffect } from "../../src/api/settledTags.ts"

/** The response header lines a request's middleware added, joined as they come. */
export class AddedHeaders {
  lines = ""
}

const merge = (context: Context.Context<never>, passed: MiddlewarePassed, headers: AddedHeaders): Context.Context<never> => {
  headers.lines += passed.headers.text
  return context.unsafeMap.size === 0 ? passed.context : Context.merge(context, passed.context)
}

const step = (middleware: MiddlewareRuntime, request: RequestInfo): Effect.Effect<MiddlewarePassed, unknown> => {
  try {
    return middleware.run(request)
  } catch (defect) {
    return Exit.die(defect)
  }
}

/**
 * Runs a route's middleware in order, adding each one's response header lines to `headers`, and gives the
 * context they provide to the handler. As long as every step answers with an `Exit` (a cached key, an
 * in-memory quota) the outcome is an `Exit`, reached without a fiber; from the first step that needs
 * an asynchronous one on, the rest of the chain is an effect to run.
 */
export const runMiddlewareChain = (
  middleware: ReadonlyArray<MiddlewareRuntime>,
  request: RequestInfo,
  headers: AddedHeaders
): Exit.Exit<Context.Context<never>, unknown> | Effect.Effect<Context.Context<never>, unknown> => {
  let context = Context.empty()
  for (let i = 0; i < middleware.length; i++) {
    const outcome = step(middleware[i]!, request)
    if (!isExitEffect(outcome)) {
      const sofar = context
      return Effect.flatMap(outcome, (passed) => {
        const next = merge(sofar, passed, headers)
        return i + 1 === middleware.length
          ? Effect.succeed(next)
          : Effect.map(Effect.suspend(() => runMiddlewareChain(middleware.slice(i + 1), request, headers)), (rest) => Context.merge(next, rest))
      })
    }
    // A failure carries no value: the same object serves as a failure of the chain.
    if (Exit.isFailure(outcome)) return outcome as Exit.Exit<never, unknown>
    context = merge(context, outcome.value, headers)
  }
  return Exit.succeed(context)
}

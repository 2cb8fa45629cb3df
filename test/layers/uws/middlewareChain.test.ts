import { describe, expect, it } from "@effect/vitest"
import { Cause, Context, Effect, Exit, Option } from "effect"
import { AddedHeaders, runMiddlewareChain } from "../../../layers/uws/middlewareChain.ts"
import { HeaderLines } from "../../../src/api/headerLines.ts"
import type { RequestInfo } from "../../../src/api/handlers.ts"
import type { MiddlewarePassed, MiddlewareRuntime } from "../../../src/api/middleware.ts"

class First extends Context.Tag("First")<First, string>() {}
class Second extends Context.Tag("Second")<Second, number>() {}

const request: RequestInfo = { id: "r1", method: "GET", path: "/x", query: "", header: () => undefined, remoteAddress: "" }

/** A middleware step that records its calls and answers with `outcome`. */
const stepOf = (calls: Array<string>, name: string, outcome: () => Effect.Effect<MiddlewarePassed, unknown>): MiddlewareRuntime => ({
  run: () => {
    calls.push(name)
    return outcome()
  }
})

const passed = (context: Context.Context<never>, header: string): MiddlewarePassed => ({ context, headers: HeaderLines.of([[header, "1"]]) })

describe("runMiddlewareChain", () => {
  it("steps answering with an Exit: an Exit with both contexts and headers in order, nothing left to run", () => {
    const calls: Array<string> = []
    const headers = new AddedHeaders()
    const outcome = runMiddlewareChain([
      stepOf(calls, "a", () => Exit.succeed(passed(Context.make(First, "one") as Context.Context<never>, "x-a"))),
      stepOf(calls, "b", () => Exit.succeed(passed(Context.make(Second, 2) as Context.Context<never>, "x-b")))
    ], request, headers)
    expect(Exit.isExit(outcome)).toBe(true)
    const context = Exit.getOrElse(outcome as Exit.Exit<Context.Context<never>, unknown>, () => Context.empty())
    expect(Context.get(context as Context.Context<First | Second>, First)).toBe("one")
    expect(Context.get(context as Context.Context<First | Second>, Second)).toBe(2)
    expect(headers.lines).toBe("\r\nx-a: 1\r\nx-b: 1")
    expect(calls).toEqual(["a", "b"])
  })

  it("a refusing step ends the chain at once with its failure; later steps do not run", () => {
    const calls: Array<string> = []
    const outcome = runMiddlewareChain([
      stepOf(calls, "a", () => Exit.fail("no key")),
      stepOf(calls, "b", () => Exit.succeed(passed(Context.empty(), "x-b")))
    ], request, new AddedHeaders())
    expect(Exit.isExit(outcome) && Exit.isFailure(outcome) && Option.getOrNull(Cause.failureOption(outcome.cause))).toBe("no key")
    expect(calls).toEqual(["a"])
  })

  it("a step that throws becomes a defect, not an exception out of the uWS handler", () => {
    const outcome = runMiddlewareChain([{ run: () => { throw new Error("bug") } }], request, new AddedHeaders())
    expect(Exit.isExit(outcome) && Exit.isFailure(outcome) && Cause.isDie(outcome.cause)).toBe(true)
  })

  it.live("from the first step needing a fiber on, the rest is an effect: same contexts, headers, order", () =>
    Effect.gen(function*() {
      const calls: Array<string> = []
      const headers = new AddedHeaders()
      const chain = runMiddlewareChain([
        stepOf(calls, "sync", () => Exit.succeed(passed(Context.make(First, "one") as Context.Context<never>, "x-a"))),
        stepOf(calls, "async", () => Effect.as(Effect.sleep("1 millis"), passed(Context.make(Second, 2) as Context.Context<never>, "x-b"))),
        stepOf(calls, "after", () => Exit.succeed(passed(Context.empty(), "x-c")))
      ], request, headers)
      expect(Exit.isExit(chain)).toBe(false)
      expect(calls).toEqual(["sync", "async"])
      const context = (yield* chain) as Context.Context<First | Second>
      expect(Context.get(context, First)).toBe("one")
      expect(Context.get(context, Second)).toBe(2)
      expect(headers.lines).toBe("\r\nx-a: 1\r\nx-b: 1\r\nx-c: 1")
      expect(calls).toEqual(["sync", "async", "after"])
    }))
})

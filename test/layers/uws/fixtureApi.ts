import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Effect, Layer, Ref, Schema } from "effect"
import { ApiRoutesLive } from "../../../layers/uws/ApiRoutes.ts"
import { MaxBodyBytes } from "../../../src/api/annotations.ts"
import {
  BadRequestCodeId,
  BadRequestResponse,
  HeadersTooLargeResponse,
  InternalErrorResponse,
  NotFound,
  NotFoundResponse,
  PayloadTooLargeResponse,
  ProjectionUnavailable,
  ProjectionUnavailableResponse,
  RateLimited,
  RateLimitedResponse,
  Unauthorized,
  UnauthorizedResponse,
  UriTooLongResponse
} from "../../../src/api/errors.ts"
import { implementGroup } from "../../../src/api/handlers.ts"
import { implementMiddleware } from "../../../src/api/middleware.ts"
import { PreEncoded } from "../../../src/api/preEncoded.ts"
import { Address } from "../../../src/api/schemas.ts"
import { listenForTest } from "../../../src/bench/support/httpTestServer.ts"

/** A test-only contract that exercises every transport feature the real API does not use yet. */

export const UNKNOWN_ITEM = "11111111111111111111111111111111"

export class Caller extends Context.Tag("test/Caller")<Caller, { readonly name: string }>() {}

export class TestKey extends HttpApiMiddleware.Tag<TestKey>()("TestKey", {
  failure: UnauthorizedResponse,
  provides: Caller,
  security: { apiKey: HttpApiSecurity.apiKey({ in: "header", key: "x-api-key" }) }
}) {}

const Cursor = Schema.String.pipe(Schema.pattern(/^c[0-9]+$/)).annotations({ [BadRequestCodeId]: "INVALID_CURSOR" })

export const ListParams = Schema.Struct({
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100))),
  tag: Schema.optional(Schema.Array(Schema.String)),
  cursor: Schema.optional(Cursor)
}).annotations({ parseOptions: { onExcessProperty: "error" } })

export const NewItem = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(32)),
  amountRaw: Schema.String.pipe(Schema.pattern(/^[0-9]+$/))
})

export const Item = Schema.Struct({ address: Address, name: Schema.String })

export const FixtureApi = HttpApi.make("fixture")
  .add(
    HttpApiGroup.make("items")
      .add(
        HttpApiEndpoint.get("get", "/items/:address")
          .setPath(Schema.Struct({ address: Address }))
          .addSuccess(Item)
          .addError(NotFoundResponse)
      )
      .add(HttpApiEndpoint.del("remove", "/items/:address").setPath(Schema.Struct({ address: Address })))
      .add(
        HttpApiEndpoint.get("list", "/items")
          .setUrlParams(ListParams)
          .addSuccess(
            Schema.Struct({
              limit: Schema.NullOr(Schema.Number),
              tag: Schema.Array(Schema.String),
              cursor: Schema.NullOr(Schema.String)
            })
          )
      )
      .add(
        HttpApiEndpoint.post("create", "/items")
          .setPayload(NewItem)
          .addSuccess(Schema.Struct({ created: Schema.String }), { status: 201 })
          .addError(PayloadTooLargeResponse)
          .annotate(MaxBodyBytes, 1024)
      )
      .add(
        HttpApiEndpoint.get("lenient", "/lenient").setUrlParams(Schema.Struct({ x: Schema.optional(Schema.String) }))
          .addSuccess(Schema.Struct({ x: Schema.NullOr(Schema.String) }))
      )
  )
  .add(
    HttpApiGroup.make("behaviour")
      .add(HttpApiEndpoint.get("slow", "/slow").addSuccess(Schema.Struct({ waited: Schema.Boolean })))
      .add(HttpApiEndpoint.get("hang", "/hang").addSuccess(Schema.Struct({})))
      .add(HttpApiEndpoint.get("defect", "/defect").addSuccess(Schema.Struct({})))
      .add(HttpApiEndpoint.get("throws", "/throws").addSuccess(Schema.Struct({})))
      .add(HttpApiEndpoint.get("undeclared", "/undeclared").addSuccess(Schema.Struct({})))
      .add(HttpApiEndpoint.get("badSuccess", "/bad-success").addSuccess(Schema.Struct({ n: Schema.Number })))
      .add(HttpApiEndpoint.get("limited", "/limited").addSuccess(Schema.Struct({})).addError(RateLimitedResponse))
      .add(
        HttpApiEndpoint.get("unavailable", "/unavailable").addSuccess(Schema.Struct({})).addError(
          ProjectionUnavailableResponse
        )
      )
      .add(HttpApiEndpoint.get("big", "/big").addSuccess(Schema.Struct({ filler: Schema.String })))
  )
  .add(
    HttpApiGroup.make("guarded")
      .add(HttpApiEndpoint.get("whoami", "/whoami").addSuccess(Schema.Struct({ caller: Schema.String })))
      .middleware(TestKey)
  )
  .addError(BadRequestResponse)
  .addError(UriTooLongResponse)
  .addError(HeadersTooLargeResponse)
  .addError(InternalErrorResponse)

/** Counts interruptions of `/hang`, so a test can see a client abort reach the handler. */
export class HangInterruptions extends Context.Tag("test/HangInterruptions")<HangInterruptions, Ref.Ref<number>>() {}

export const BIG_FILLER_BYTES = 12 * 1024 * 1024

const ItemsLive = implementGroup(
  FixtureApi,
  "items",
  Effect.succeed({
    get: ({ path }) =>
      path.address === UNKNOWN_ITEM
        ? Effect.fail(new NotFound({ code: "NOT_FOUND", message: `no item ${path.address}` }))
        : Effect.succeed({ address: path.address, name: "item" }),
    remove: () => Effect.void,
    list: ({ urlParams }) =>
      Effect.succeed({ limit: urlParams.limit ?? null, tag: urlParams.tag ?? [], cursor: urlParams.cursor ?? null }),
    create: ({ payload }) => Effect.succeed({ created: payload.name }),
    lenient: ({ urlParams }) => Effect.succeed({ x: urlParams.x ?? null })
  })
)

const BehaviourLive = implementGroup(
  FixtureApi,
  "behaviour",
  Effect.gen(function*() {
    const interruptions = yield* HangInterruptions
    const big = PreEncoded.encoder(Schema.Struct({ filler: Schema.String }))({ filler: "x".repeat(BIG_FILLER_BYTES) })
    return {
      slow: () => Effect.as(Effect.sleep("20 millis"), { waited: true }),
      hang: () => Effect.onInterrupt(Effect.never, () => Ref.update(interruptions, (n) => n + 1)),
      defect: () => Effect.die(new Error("boom")),
      throws: () => {
        throw new Error("thrown synchronously by the handler")
      },
      undeclared: () => Effect.fail({ _tag: "NotInTheContract" } as never),
      badSuccess: () => Effect.succeed({ n: "not a number" } as unknown as { n: number }),
      limited: () =>
        Effect.fail(
          new RateLimited({
            code: "RATE_LIMITED",
            message: "quota exceeded",
            limit: 100,
            remaining: 0,
            reset: 1_700_000_060,
            retryAfterSeconds: 17
          })
        ),
      unavailable: () => Effect.fail(ProjectionUnavailable.because("catching_up", 7)),
      big: () => Effect.succeed(big)
    }
  })
)

const GuardedLive = implementGroup(
  FixtureApi,
  "guarded",
  Effect.succeed({ whoami: () => Effect.map(Caller, (caller) => ({ caller: caller.name })) })
)

export const TEST_KEY = "let-me-in"

const TestKeyLive = implementMiddleware(TestKey, (request) =>
  request.header("x-api-key") === TEST_KEY
    ? Effect.succeed({ provides: { name: `key@${request.remoteAddress}` }, headers: [["x-quota-remaining", "41"]] })
    : Effect.fail(new Unauthorized({ code: "UNAUTHORIZED", message: "missing or unknown x-api-key" })))

/** The fixture contract served on a free loopback port. */
export const fixtureServer = (options: Parameters<typeof ApiRoutesLive>[1] = {}) =>
  listenForTest(
    ApiRoutesLive(FixtureApi, options).pipe(
      Layer.provide(Layer.mergeAll(ItemsLive, BehaviourLive, GuardedLive, TestKeyLive))
    )
  ).pipe(Layer.provideMerge(Layer.effect(HangInterruptions, Ref.make(0))))

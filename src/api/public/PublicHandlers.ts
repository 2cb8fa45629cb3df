import { Effect } from "effect"
import { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { Api } from "../Api.ts"
import { NotFound } from "../errors.ts"
import { implementGroup } from "../handlers.ts"
import { yieldRows } from "./yieldRows.ts"

const CODE_SHAPE = /^[A-Za-z0-9_-]{1,64}$/

export const PublicHandlersLive = implementGroup(
  Api,
  "public",
  Effect.gen(function*() {
    const codes = yield* BuilderCodes
    const projection = yield* Projection
    const prices = yield* Prices
    const unknown = (code: string) => new NotFound({ code: "NOT_FOUND", message: `no enabled builder code ${code.slice(0, 64)}` })
    return {
      code: ({ path }) =>
        CODE_SHAPE.test(path.code)
          ? Effect.flatMap(codes.resolve(path.code), (resolved) =>
            resolved === null ? Effect.fail(unknown(path.code)) : Effect.succeed({ success: true as const, data: resolved }))
          : Effect.fail(unknown(path.code)),
      // a few dozen vaults, and prices move without the projection: computed per request
      yields: () => projection.read((state) => ({ success: true as const, data: { vaults: yieldRows(state, prices) } }))
    }
  })
)

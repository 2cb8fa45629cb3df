import { Effect } from "effect"
import { Projection } from "../../../services/Projection.ts"
import { parseDepositPreviewQuery, parseWithdrawPreviewQuery, previewDeposit, previewWithdraw } from "../../domain/builds/index.ts"
import { Api } from "../Api.ts"
import { implementGroup } from "../handlers.ts"
import { PreEncoded } from "../preEncoded.ts"
import { chainNow, makeBuildFlow } from "./buildFlow.ts"
import { mapSettled } from "./settled.ts"

/** `{success: true, data}`, encoded directly: the build core's answers are plain JSON already. */
const answer = (data: unknown) => new PreEncoded(JSON.stringify({ success: true, data }))

/** The v2 builders (see buildFlow.ts) and the previews, which read the projection only. */
export const BuildsHandlersLive = implementGroup(
  Api,
  "builds",
  Effect.gen(function*() {
    const projection = yield* Projection
    const flow = yield* makeBuildFlow
    return {
      // a settled build stays settled: the transport then answers without a fiber
      deposit: ({ path, payload }) => mapSettled(flow.deposit(path.vaultAddress, payload), answer),
      withdraw: ({ path, payload }) => mapSettled(flow.withdraw(path.vaultAddress, payload), answer),
      previewDeposit: ({ path, urlParams }) =>
        Effect.gen(function*() {
          const request = yield* parseDepositPreviewQuery(urlParams)
          const preview = yield* projection.read((state) =>
            previewDeposit({ state, vaultAddress: path.vaultAddress, now: chainNow(state), request, processingIntervalSeconds: null })
          )
          return answer(yield* preview)
        }),
      previewWithdraw: ({ path, urlParams }) =>
        Effect.gen(function*() {
          const request = yield* parseWithdrawPreviewQuery(urlParams)
          const preview = yield* projection.read((state) =>
            previewWithdraw({ state, vaultAddress: path.vaultAddress, now: chainNow(state), request })
          )
          return answer(yield* preview)
        })
    }
  })
)

import { Effect } from "effect"
import { Projection } from "../../../services/Projection.ts"
import { parseDepositPreviewQuery, parseWithdrawPreviewQuery, previewDeposit, previewWithdraw } from "../../domain/builds/index.ts"
import { Api } from "../Api.ts"
import { implementGroup } from "../handlers.ts"
import { stateAsOf } from "../vaults/vaultPath.ts"
import { chainNow, makeBuildFlow } from "./buildFlow.ts"
import { DepositBuildAnswer, DepositPreviewAnswer, WithdrawBuildAnswer, WithdrawPreviewAnswer } from "./BuildsApi.ts"
import { wireEncoder } from "./buildSchemas.ts"
import { mapSettled } from "./settled.ts"

// `{success: true, data, asOf}`, encoded directly: the build core's answers are plain JSON already,
// typed as the documented wire shape.
const depositAnswer = wireEncoder(DepositBuildAnswer)
const withdrawAnswer = wireEncoder(WithdrawBuildAnswer)
const depositPreviewAnswer = wireEncoder(DepositPreviewAnswer)
const withdrawPreviewAnswer = wireEncoder(WithdrawPreviewAnswer)

/** The v2 builders (see buildFlow.ts) and the previews, which read the projection only. */
export const BuildsHandlersLive = implementGroup(
  Api,
  "builds",
  Effect.gen(function*() {
    const projection = yield* Projection
    const flow = yield* makeBuildFlow
    return {
      // a settled build stays settled: the transport then answers without a fiber
      deposit: ({ path, payload }) =>
        mapSettled(flow.deposit(path.vaultAddress, payload), ({ data, asOf }) => depositAnswer({ success: true, data, asOf })),
      withdraw: ({ path, payload }) =>
        mapSettled(flow.withdraw(path.vaultAddress, payload), ({ data, asOf }) => withdrawAnswer({ success: true, data, asOf })),
      previewDeposit: ({ path, urlParams }) =>
        Effect.gen(function*() {
          const request = yield* parseDepositPreviewQuery(urlParams)
          const { preview, asOf } = yield* projection.read((state) => ({
            preview: previewDeposit({ state, vaultAddress: path.vaultAddress, now: chainNow(state), request, processingIntervalSeconds: null }),
            asOf: stateAsOf(state)
          }))
          return depositPreviewAnswer({ success: true, data: yield* preview, asOf })
        }),
      previewWithdraw: ({ path, urlParams }) =>
        Effect.gen(function*() {
          const request = yield* parseWithdrawPreviewQuery(urlParams)
          const { preview, asOf } = yield* projection.read((state) => ({
            preview: previewWithdraw({ state, vaultAddress: path.vaultAddress, now: chainNow(state), request }),
            asOf: stateAsOf(state)
          }))
          return withdrawPreviewAnswer({ success: true, data: yield* preview, asOf })
        })
    }
  })
)

import { Duration, Effect } from "effect"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { fetchJson } from "./httpFetch.ts"

/**
 * A wallet's pending requests (`GET /v2/vault/{vault}/user/{wallet}/pending`) once `done` holds,
 * stepping the sandbox chain between reads (the gateway only sees new state as slots pass).
 */
export const pendingWhen = (
  gateway: { readonly url: string; readonly vault: string; readonly step: () => void },
  wallet: string,
  done: (data: any) => boolean
) =>
  Effect.gen(function*() {
    let last: unknown = null
    for (let i = 0; i < 300; i++) {
      const response = yield* fetchJson(`${gateway.url}/v2/vault/${gateway.vault}/user/${wallet}/pending`, {
        headers: { "x-api-key": TEST_PARTNER_KEY }
      })
      last = response.body
      if (response.status === 200 && done(response.body.data)) return response.body.data
      gateway.step()
      yield* Effect.sleep(Duration.millis(20))
    }
    return yield* Effect.dieMessage(`pending never reached the expected state: ${JSON.stringify(last)}`)
  })

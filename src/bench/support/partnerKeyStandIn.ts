import { Effect } from "effect"
import { presentedKey } from "../../../layers/memory/PartnerKeyLive.ts"
import { Unauthorized } from "../../api/errors.ts"
import { implementMiddleware } from "../../api/middleware.ts"
import { PartnerKey } from "../../api/security/PartnerKey.ts"

/** The partner key the test gateway accepts (the real middleware is tested against Postgres elsewhere). */
export const TEST_PARTNER_KEY = "vg_sandbox_test_partner_key"

/** `PartnerKey` for contract tests: exactly `TEST_PARTNER_KEY` passes, anything else is a 401. */
export const PartnerKeyStandIn = implementMiddleware(PartnerKey, (request) =>
  presentedKey(request) === TEST_PARTNER_KEY
    ? Effect.succeed({
      provides: { keyId: "test", name: "test partner", ownerWallet: null, environment: "sandbox" as const },
      headers: [["x-ratelimit-limit", "1000"], ["x-ratelimit-remaining", "999"], ["x-ratelimit-reset", "0"]] as const
    })
    : Effect.fail(new Unauthorized({ code: "UNAUTHORIZED", message: "an API key is required" })))

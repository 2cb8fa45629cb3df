import { Effect, Redacted } from "effect"
import { KeyUsage } from "../../../services/KeyUsage.ts"
import { usageByKey } from "../../domain/controlPlane/usageDays.ts"
import { type IssuedOrganizationKey, OrganizationCodeNotFound, type OrganizationKey, Organizations } from "../../../services/Organizations.ts"
import { clearedSessionCookie } from "../../domain/controlPlane/sessionCookie.ts"
import { CLAIMABLE_CODE, CODE_RULE } from "../../domain/controlPlane/codeName.ts"
import { ownerTransferStatement } from "../../domain/controlPlane/signIn.ts"
import { KEY_SCOPES, type KeyScope } from "../../domain/partnerKeys/scopes.ts"
import { Api } from "../Api.ts"
import { BadRequest } from "../errors.ts"
import { implementGroup, type RequestInfo } from "../handlers.ts"
import { WithHeaders } from "../withHeaders.ts"
import type { ControlPlaneSettings } from "./controlPlaneConfig.ts"
import { ControlPlaneBadRequest, ControlPlaneConflict, ControlPlaneNotFound } from "./errors.ts"
import { makeIdempotency } from "./idempotency.ts"
import { makeSignInFlow } from "./signInFlow.ts"
import { auditView, codeView, keyView, organizationView } from "./views.ts"
import { AuthenticatedWallet } from "./WalletSession.ts"

const AUDIT_CURSOR = /^audit:(\d{1,19})$/
const invalidCursor = new BadRequest({ code: "INVALID_CURSOR", message: "cursor: not one this route issued; start again without it" })

const decodeAuditCursor = (cursor: string | undefined): Effect.Effect<bigint | null, BadRequest> => {
  if (cursor === undefined) return Effect.succeed(null)
  const match = AUDIT_CURSOR.exec(Buffer.from(cursor, "base64url").toString("utf8"))
  return match === null ? Effect.fail(invalidCursor) : Effect.succeed(BigInt(match[1]!))
}
const encodeAuditCursor = (id: string) => Buffer.from(`audit:${id}`).toString("base64url")

const keyNotFound = (id: string) => new ControlPlaneNotFound({ code: "KEY_NOT_FOUND", message: `no active key ${id.slice(0, 64)} in this organization` })
const codeNotFound = (code: string) => new ControlPlaneNotFound({ code: "CODE_NOT_FOUND", message: `this organization holds no code ${code.slice(0, 64)}` })

const orderedScopes = (scopes: ReadonlyArray<KeyScope>): ReadonlyArray<KeyScope> => KEY_SCOPES.filter((scope) => scopes.includes(scope))

/** The organization's routes; every change audited by the store and idempotent by `Idempotency-Key`. */
export const OrgHandlersLive = (settings: ControlPlaneSettings) =>
  implementGroup(
    Api,
    "org",
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const usage = yield* KeyUsage
      const flow = yield* makeSignInFlow(settings)
      const idempotent = yield* makeIdempotency
      const environment = settings.cluster

      const issuedBody = (
        issued: IssuedOrganizationKey & { readonly previous?: OrganizationKey; readonly revoked?: ReadonlyArray<string> }
      ) => {
        const now = Date.now()
        return {
          success: true as const,
          data: {
            key: Redacted.value(issued.plaintext) as string | null,
            apiKey: keyView(issued.key, now),
            ...(issued.previous === undefined ? {} : { previous: keyView(issued.previous, now) }),
            ...(issued.revoked === undefined ? {} : { revokedKeyIds: [...issued.revoked] })
          }
        }
      }
      // what an Idempotency-Key keeps of a key's issuance: never the plaintext
      const withoutPlaintext = (body: ReturnType<typeof issuedBody>) => ({ ...body, data: { ...body.data, key: null } })

      const codeShape = (code: string) =>
        CLAIMABLE_CODE.test(code) ? Effect.void : Effect.fail(new ControlPlaneBadRequest({ code: "INVALID_CODE", message: `a code is ${CODE_RULE}` }))

      const setEnabled = (enabled: boolean) => ({ path, request }: { readonly path: { readonly code: string }; readonly request: RequestInfo }) =>
        idempotent(request, null, (who) =>
          // a name no code can have is not looked up (the database refuses some bytes, e.g. NUL)
          (CLAIMABLE_CODE.test(path.code) ? organizations.setCodeEnabled(who, path.code, enabled) : Effect.fail(new OrganizationCodeNotFound({ code: path.code }))).pipe(
            Effect.catchTag("OrganizationCodeNotFound", () => Effect.fail(codeNotFound(path.code))),
            Effect.map((code) => ({ success: true as const, data: { code: codeView(code) } }))
          ))

      return {
        get: () =>
          Effect.gen(function*() {
            const who = yield* AuthenticatedWallet
            const organization = yield* organizations.ofOwner(who.wallet)
            if (organization === null) return yield* Effect.die(new Error("the organization vanished while read"))
            return { success: true as const, data: { organization: organizationView(organization) } }
          }),
        ownerNonce: ({ request }) =>
          idempotent(request, null, (who) =>
            flow.issue("owner-transfer", who.organizationId, ownerTransferStatement(who.organizationId, who.wallet)).pipe(
              Effect.map((input) => ({ success: true as const, data: input }))
            )
          ),
        transferOwner: ({ payload, request }) =>
          idempotent(request, payload, (who) =>
            Effect.gen(function*() {
              yield* flow.meter(request)
              const newOwner = yield* flow.verify("owner-transfer", who.organizationId, payload)
              if (newOwner === who.wallet) {
                return yield* Effect.fail(new ControlPlaneConflict({ code: "WALLET_OWNS_ORGANIZATION", message: "this wallet already owns the organization" }))
              }
              const organization = yield* organizations.transferOwner(who, newOwner).pipe(
                Effect.catchTag("WalletOwnsOrganization", () =>
                  Effect.fail(
                    new ControlPlaneConflict({
                      code: "WALLET_OWNS_ORGANIZATION",
                      message: "the new wallet owns an organization with keys or codes; it cannot take over another"
                    })
                  ))
              )
              return { success: true as const, data: { organization: organizationView(organization) } }
            })
          ).pipe(
            // the previous owner's sessions, this one included, ended with the transfer
            Effect.map((answer) => new WithHeaders(answer instanceof WithHeaders ? answer.value : answer, [["set-cookie", clearedSessionCookie({ secure: settings.secureCookie })]]))
          ),
        keys: () =>
          Effect.gen(function*() {
            const who = yield* AuthenticatedWallet
            const keys = yield* organizations.keys(who.organizationId)
            const now = Date.now()
            return { success: true as const, data: { keys: keys.map((key) => keyView(key, now)) } }
          }),
        issueKey: ({ payload, request }) =>
          idempotent(request, payload, (who) =>
            organizations.issueKey(who, { name: payload.name, scopes: orderedScopes(payload.scopes), environment }).pipe(
              Effect.catchTag("OrganizationLimitReached", (limit) => Effect.fail(new ControlPlaneConflict({ code: "LIMIT_REACHED", message: limit.message }))),
              Effect.map(issuedBody)
            ),
            withoutPlaintext
          ),
        generateKey: ({ payload, request }) =>
          idempotent(request, payload, (who) =>
            organizations.generateKey(who, {
              name: payload.name ?? "generated",
              scopes: orderedScopes(payload.scopes ?? KEY_SCOPES),
              environment
            }).pipe(Effect.map(issuedBody)),
            withoutPlaintext
          ),
        rotateKey: ({ path, request }) =>
          idempotent(request, null, (who) =>
            organizations.rotateKey(who, path.id).pipe(
              Effect.catchTag("OrganizationKeyNotFound", () => Effect.fail(keyNotFound(path.id))),
              Effect.map(issuedBody)
            ),
            withoutPlaintext
          ),
        revokeKey: ({ path, request }) =>
          idempotent(request, null, (who) =>
            organizations.revokeKey(who, path.id).pipe(
              Effect.catchTag("OrganizationKeyNotFound", () => Effect.fail(keyNotFound(path.id))),
              Effect.map((key) => ({ success: true as const, data: { apiKey: keyView(key, Date.now()) } }))
            )
          ),
        codes: () =>
          Effect.gen(function*() {
            const who = yield* AuthenticatedWallet
            const codes = yield* organizations.codes(who.organizationId)
            return { success: true as const, data: { codes: codes.map(codeView) } }
          }),
        claimCode: ({ payload, request }) =>
          idempotent(request, payload, (who) =>
            codeShape(payload.code).pipe(
              Effect.zipRight(organizations.claimCode(who, payload.code)),
              Effect.catchTags({
                CodeTaken: () => Effect.fail(new ControlPlaneConflict({ code: "CODE_TAKEN", message: `the code ${payload.code} is taken (codes are compared without case)` })),
                OrganizationLimitReached: (limit) => Effect.fail(new ControlPlaneConflict({ code: "LIMIT_REACHED", message: limit.message }))
              }),
              Effect.map((code) => ({ success: true as const, data: { code: codeView(code) } }))
            )
          ),
        disableCode: setEnabled(false),
        enableCode: setEnabled(true),
        usage: ({ urlParams }) =>
          Effect.gen(function*() {
            const who = yield* AuthenticatedWallet
            const keys = yield* organizations.keys(who.organizationId)
            const days = urlParams.days ?? 30
            const window = usageByKey(Date.now(), days)
            const counts = yield* usage.daily(keys.map((key) => key.id), window.days[0]!)
            return { success: true as const, data: { days: window.days, keys: window.align(keys, counts) } }
          }),
        audit: ({ urlParams }) =>
          Effect.gen(function*() {
            const who = yield* AuthenticatedWallet
            const before = yield* decodeAuditCursor(urlParams.cursor)
            const limit = urlParams.limit ?? 50
            const entries = yield* organizations.audit(who.organizationId, { before, limit: limit + 1 })
            const page = entries.slice(0, limit)
            const nextCursor = entries.length > limit ? encodeAuditCursor(page[page.length - 1]!.id) : null
            return { success: true as const, data: { entries: page.map(auditView), nextCursor } }
          })
      }
    })
  )

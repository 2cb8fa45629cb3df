import { Schema } from "effect"
import { KEY_SCOPES } from "../../domain/partnerKeys/scopes.ts"
import { queryLimit } from "../schemas.ts"

/**
 * Wire shapes of the control plane. Times are ISO 8601 strings and every shape is plain JSON, so an
 * answer stored for an `Idempotency-Key` replays exactly.
 */

const success = <F extends Schema.Struct.Fields>(identifier: string, data: Schema.Struct<F>) =>
  Schema.Struct({ success: Schema.Literal(true), data }).annotations({ identifier })

const text = (max: number) => Schema.String.pipe(Schema.maxLength(max))
const Base64 = Schema.String.pipe(Schema.maxLength(8192), Schema.pattern(/^[A-Za-z0-9+/]*={0,2}$/))
const Time = Schema.String
const NullableTime = Schema.NullOr(Schema.String)

export const SignInInputSchema = Schema.Struct({
  domain: Schema.String,
  uri: Schema.String,
  version: Schema.String,
  chainId: Schema.String,
  statement: Schema.String,
  nonce: Schema.String,
  issuedAt: Time,
  expirationTime: Time
}).annotations({ identifier: "SignInInput", description: "The Wallet Standard SolanaSignInInput to pass to solana:signIn" })

export const SignInInputBody = success("SignInInputBody", SignInInputSchema)

const EchoedInput = Schema.partial(
  Schema.Struct({
    domain: text(512),
    uri: text(512),
    version: text(16),
    chainId: text(64),
    statement: text(512),
    nonce: text(128),
    issuedAt: text(64),
    expirationTime: text(64)
  })
)

/** `{input, output}`: the input as issued and the wallet's SolanaSignInOutput with its bytes in base64. */
export const SignInProof = Schema.Struct({
  input: EchoedInput,
  output: Schema.Struct({
    account: Schema.Struct({ address: text(64), publicKey: Base64 }),
    signedMessage: Base64,
    signature: Base64
  })
}).annotations({ identifier: "SignInProof" })
export type SignInProof = typeof SignInProof.Type

export const OrganizationView = Schema.Struct({
  id: Schema.String,
  ownerWallet: Schema.String,
  createdAt: Time
}).annotations({ identifier: "Organization" })

export const SessionView = Schema.Struct({
  id: Schema.String,
  wallet: Schema.String,
  createdAt: Time,
  lastSeenAt: Time,
  expiresAt: Time,
  idleTimeoutSeconds: Schema.Int,
  current: Schema.Boolean
}).annotations({ identifier: "WalletSession" })

export const SignedInBody = success(
  "SignedIn",
  Schema.Struct({ wallet: Schema.String, organization: OrganizationView, organizationCreated: Schema.Boolean, session: SessionView })
)
export const SessionBody = success("Session", Schema.Struct({ session: SessionView, organization: OrganizationView }))
export const SessionsBody = success("Sessions", Schema.Struct({ sessions: Schema.Array(SessionView) }))
export const EndedBody = success("Ended", Schema.Struct({ ended: Schema.Boolean }))
export const OrganizationBody = success("OrganizationBody", Schema.Struct({ organization: OrganizationView }))

export const Scope = Schema.Literal(...KEY_SCOPES)

export const KeyView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  environment: Schema.String,
  prefix: Schema.String,
  last4: Schema.String,
  scopes: Schema.Array(Scope),
  quota: Schema.Struct({ limit: Schema.NullOr(Schema.Int), windowSeconds: Schema.NullOr(Schema.Int) }),
  createdAt: Time,
  lastUsedAt: NullableTime,
  expiresAt: NullableTime,
  revokedAt: NullableTime,
  active: Schema.Boolean
}).annotations({ identifier: "ApiKey" })
export type KeyView = typeof KeyView.Type

export const KeysBody = success("ApiKeys", Schema.Struct({ keys: Schema.Array(KeyView) }))

/**
 * A key just made. `key` is the plaintext, shown this once; it is null in the replay of an
 * `Idempotency-Key` (the plaintext is never stored).
 */
export const IssuedKeyBody = success(
  "IssuedApiKey",
  Schema.Struct({
    key: Schema.NullOr(Schema.String),
    apiKey: KeyView,
    previous: Schema.optional(KeyView),
    revokedKeyIds: Schema.optional(Schema.Array(Schema.String))
  })
)
export const KeyBody = success("ApiKeyBody", Schema.Struct({ apiKey: KeyView }))

/** A key's label: shown in lists and the audit trail, so no control characters (PostgreSQL refuses a NUL). */
const KeyName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64), Schema.pattern(/^[^\p{Cc}]*$/u)).annotations({
  description: "1 to 64 characters, no control characters"
})

export const NewKey = Schema.Struct({
  name: KeyName,
  scopes: Schema.Array(Scope).pipe(Schema.minItems(1), Schema.maxItems(KEY_SCOPES.length))
}).annotations({ identifier: "NewApiKey" })

export const GeneratedKey = Schema.Struct({
  name: Schema.optional(KeyName),
  scopes: Schema.optional(Schema.Array(Scope).pipe(Schema.minItems(1), Schema.maxItems(KEY_SCOPES.length)))
}).annotations({ identifier: "GeneratedApiKey" })

export const CodeView = Schema.Struct({
  code: Schema.String,
  enabled: Schema.Boolean,
  referrer: Schema.String,
  createdAt: Time,
  updatedAt: Time
}).annotations({ identifier: "OrganizationCode" })

export const CodesBody = success("OrganizationCodes", Schema.Struct({ codes: Schema.Array(CodeView) }))
export const CodeBody = success("OrganizationCodeBody", Schema.Struct({ code: CodeView }))
export const ClaimCode = Schema.Struct({ code: text(64) }).annotations({ identifier: "ClaimCode" })

export const AuditEntryView = Schema.Struct({
  id: Schema.String,
  wallet: Schema.String,
  action: Schema.String,
  details: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  createdAt: Time
}).annotations({ identifier: "AuditEntry" })

export const AuditBody = success(
  "AuditLog",
  Schema.Struct({ entries: Schema.Array(AuditEntryView), nextCursor: Schema.NullOr(Schema.String) })
)

export const AuditQuery = Schema.Struct({
  limit: Schema.optional(queryLimit(50)),
  cursor: Schema.optional(text(200))
})

/** `days`: how many UTC days of key usage, today included: 1 to 90 (default 30). */
export const UsageQuery = Schema.Struct({
  days: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 90)).annotations({
      jsonSchema: { type: "integer", minimum: 1, maximum: 90, default: 30, description: "UTC days, today included: 1 to 90 (default 30)" }
    })
  )
})

/**
 * Requests per key and UTC day: `days` oldest first (today last, counting so far), and per key of the
 * organization (revoked ones too) its counts aligned with `days`.
 */
export const UsageBody = success(
  "KeyUsage",
  Schema.Struct({
    days: Schema.Array(Schema.String),
    keys: Schema.Array(Schema.Struct({ keyId: Schema.String, name: Schema.String, requests: Schema.Array(Schema.Int) }))
  })
)

export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(Schema.String)
})

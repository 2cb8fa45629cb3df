-- The builder control plane (wallet sessions, organizations, their keys and codes, audit log and
-- idempotency records). Everything lives here so that any instance serves any step of a flow.

-- An organization belongs to one wallet; the first sign-in of a wallet creates one.
CREATE TABLE organization (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_wallet text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Sign-In With Solana nonces: the input handed out, single use, expiring. `purpose` tells a
-- sign-in from an owner transfer (whose input names the organization to accept).
CREATE TABLE siws_nonce (
  nonce text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('sign-in', 'owner-transfer')),
  organization_id uuid REFERENCES organization (id) ON DELETE CASCADE,
  input jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX siws_nonce_expires_idx ON siws_nonce (expires_at);

-- Wallet sessions: only the SHA-256 of the random token is stored.
CREATE TABLE wallet_session (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE,
  wallet text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  -- absolute lifetime; the idle timeout is counted from last_seen_at
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX wallet_session_wallet_idx ON wallet_session (wallet) WHERE ended_at IS NULL;

-- Keys of an organization; keys without one (CLI, sandbox seed) keep every scope.
ALTER TABLE partner_key
  ADD COLUMN organization_id uuid REFERENCES organization (id),
  ADD COLUMN scopes text[] NOT NULL DEFAULT ARRAY['reads', 'reporting', 'builds', 'stream'],
  ADD COLUMN last_used_at timestamptz;
CREATE INDEX partner_key_organization_idx ON partner_key (organization_id) WHERE organization_id IS NOT NULL;

-- Requests per key and UTC day, flushed from in-memory counters.
CREATE TABLE partner_key_usage (
  key_id uuid NOT NULL REFERENCES partner_key (id),
  day date NOT NULL,
  requests bigint NOT NULL,
  PRIMARY KEY (key_id, day)
);

-- Codes claimed by an organization resolve to its owner wallet (kept in referrer_wallet).
ALTER TABLE builder_code ADD COLUMN organization_id uuid REFERENCES organization (id);
CREATE INDEX builder_code_organization_idx ON builder_code (organization_id) WHERE organization_id IS NOT NULL;

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organization (id) ON DELETE CASCADE,
  wallet text NOT NULL,
  action text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_organization_idx ON audit_log (organization_id, id DESC);

-- Idempotency-Key answers per organization: the request's hash and the answer given (never a
-- key's plaintext). `status` NULL while the first call runs.
CREATE TABLE idempotency_record (
  organization_id uuid NOT NULL REFERENCES organization (id) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, idempotency_key)
);
CREATE INDEX idempotency_record_created_idx ON idempotency_record (created_at);

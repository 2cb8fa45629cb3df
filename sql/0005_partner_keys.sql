-- Partner API keys. Only the SHA-256 of a key is stored; prefix and last4 are for display.
CREATE TABLE partner_key (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  owner_wallet text,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'devnet', 'mainnet')),
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  key_last4 text NOT NULL,
  -- NULL = the server's default quota.
  quota_limit integer CHECK (quota_limit > 0),
  quota_window_seconds integer CHECK (quota_window_seconds > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  -- Set when the key is rotated: it stays valid until then.
  expires_at timestamptz,
  -- The key this one replaced by rotation, if any.
  rotated_from uuid REFERENCES partner_key (id)
);

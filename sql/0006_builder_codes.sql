-- Builder codes: a short name a dapp passes instead of the builder's wallet. Matched without
-- regard to case; a disabled code resolves to nothing but keeps its name reserved.
CREATE TABLE builder_code (
  code text PRIMARY KEY CHECK (length(code) BETWEEN 1 AND 64),
  referrer_wallet text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX builder_code_lower_code ON builder_code (lower(code));

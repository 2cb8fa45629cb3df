-- The append-only log of program transactions and the ntbundle events they emitted: the raw
-- material for flows, payouts and daily history. `raw` keeps the event's bytes as logged
-- (discriminator + Borsh data), so a decoder fix never needs a data migration; `data` is the
-- decoded JSON form, kept for ad-hoc queries.

-- Every program transaction seen, failed ones included, so a signature counts as processed.
CREATE TABLE chain_transaction (
  signature    text    PRIMARY KEY,
  slot         bigint  NOT NULL,
  block_time   bigint,
  failed       boolean NOT NULL,
  -- Events stored for this transaction (always 0 for a failed one: its events did not happen).
  event_count  integer NOT NULL
);

CREATE INDEX chain_transaction_slot_idx ON chain_transaction (slot);

CREATE TABLE program_event (
  signature    text    NOT NULL REFERENCES chain_transaction (signature),
  -- Position among the program's `Program data:` lines of the transaction.
  event_index  integer NOT NULL,
  slot         bigint  NOT NULL,
  block_time   bigint,
  name         text    NOT NULL,
  raw          bytea   NOT NULL,
  data         jsonb   NOT NULL,
  -- Pulled out of `data` for the reporting queries: the event's `bundle_account_key`, and its
  -- main wallet (`user`, else `referrer`, else `from`); null when the event has none.
  vault        text,
  wallet       text,
  PRIMARY KEY (signature, event_index)
);

CREATE INDEX program_event_vault_slot_idx ON program_event (vault, slot) WHERE vault IS NOT NULL;
CREATE INDEX program_event_wallet_slot_idx ON program_event (wallet, slot) WHERE wallet IS NOT NULL;
CREATE INDEX program_event_name_slot_idx ON program_event (name, slot);

-- The vault of a checkpointed UserBundleAccount (derived, and costly to derive again).
ALTER TABLE chain_account ADD COLUMN vault text;

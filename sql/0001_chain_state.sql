-- The projection's checkpoint: raw account bytes with the slot each reflects, and where the
-- stream stood. Raw bytes, not decoded JSON, so a decoder fix never needs a data migration.

CREATE TABLE checkpoint (
  id              smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  genesis_hash    text        NOT NULL,
  program_id      text        NOT NULL,
  slot            bigint      NOT NULL,
  block_time      bigint,
  last_signature  text,
  written_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE chain_account (
  address  text   PRIMARY KEY,
  owner    text   NOT NULL,
  slot     bigint NOT NULL,
  data     bytea  NOT NULL
);

CREATE INDEX chain_account_owner_idx ON chain_account (owner);

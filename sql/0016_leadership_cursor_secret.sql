-- Several instances on one database (issue 21). The random key that signs page cursors when
-- CURSOR_SECRET is not set: the first instance creates it, every other reads it, so a cursor issued
-- by one instance is accepted by all.
CREATE TABLE cursor_secret (
  id          smallint    PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  secret      bytea       NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Where the first-start history backfill stands, so a restart resumes instead of starting over.
CREATE TABLE history_backfill (
  id                 smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- The newest signature of the history being backfilled: the listing's starting point.
  newest_signature   text,
  -- Backfill pages backwards: every transaction from newest_signature back to this one is stored.
  oldest_signature   text,
  oldest_block_time  bigint,
  done_count         bigint  NOT NULL DEFAULT 0,
  total_count        bigint,
  finished           boolean NOT NULL DEFAULT false,
  updated_at         timestamptz NOT NULL DEFAULT now()
);

-- Daily vault rows closed by the history rollup (one per vault and UTC day), so that reads of
-- completed days never scan the event log. Amounts and share counts are raw integers (numeric).
CREATE TABLE vault_daily (
  vault                 text    NOT NULL,
  day                   date    NOT NULL,
  -- Closing values: the day's last price-bearing event, carried forward (null before the first).
  closing_share_price   numeric,
  closing_total_shares  numeric,
  deposits_requested    numeric NOT NULL,
  deposit_fees          numeric NOT NULL,
  withdrawals_paid      numeric NOT NULL,
  withdrawal_fees       numeric NOT NULL,
  fees_charged          numeric NOT NULL,
  events                integer NOT NULL,
  -- A provisional row of the day in progress; completed days have partial = false.
  partial               boolean NOT NULL DEFAULT false,
  -- Provisional rows: the chain time (unix seconds) the row covers up to.
  partial_through       bigint,
  PRIMARY KEY (vault, day)
);

-- Where the rollup stands (one row).
CREATE TABLE history_rollup (
  id              smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- Chain time (unix seconds) at which the gateway first served live: days that began earlier are
  -- rebuilt from the event log (the reconstructed legacy flag). Set once.
  live_since      bigint  NOT NULL,
  -- The newest UTC day closed for every vault and builder (null: none yet, e.g. while backfilling).
  closed_through  date,
  -- Chain time the provisional rows cover up to.
  covered_through bigint,
  -- The chain the rows were closed from (`genesis hash:program id` of the checkpoint): when the
  -- event log is discarded for another chain, the daily rows go with it.
  chain           text,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- The rollup reads the log in chain order, by keyset.
CREATE INDEX program_event_chain_order_idx ON program_event (slot, signature, event_index);

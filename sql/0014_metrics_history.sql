-- The daily values of a vault's /metrics figures as the history rollup computed them when it closed
-- each day (one row per vault and UTC day), so that later fee changes never rewrite the past. A row
-- is written once and never updated.
CREATE TABLE vault_metrics_daily (
  vault                     text             NOT NULL,
  day                       date             NOT NULL,
  apy_7d                    double precision,
  apy_7d_after_fees         double precision,
  apy_30d                   double precision,
  apy_30d_after_fees        double precision,
  apy_inception             double precision,
  apy_inception_after_fees  double precision,
  max_drawdown              double precision,
  sharpe_ratio_30d          double precision,
  -- The fee schedule the after-fees figures deducted (the vault's, as the projection held it when the
  -- row was computed); null when the vault was not in the projection then.
  management_fee_bps        integer,
  performance_fee_bps       integer,
  -- Closing TVL in raw asset units (closing shares x closing share price / 10^decimals), and the
  -- asset's USD price recorded at the day's close that values it (null: no price observed at the close).
  closing_tvl               numeric,
  asset_usd                 double precision,
  -- Completed days with a closing share price behind the figures.
  history_days              integer          NOT NULL,
  -- 'atClose': computed when the rollup closed the day while the gateway followed the chain.
  -- 'backfill': computed afterwards from that day's stored data, for days that ended before the
  -- gateway first served live (the backfilled history) or were closed before this table existed.
  derivation                text             NOT NULL CHECK (derivation IN ('atClose', 'backfill')),
  -- Chain time (unix seconds) the row was computed at.
  computed_at               bigint           NOT NULL,
  PRIMARY KEY (vault, day)
);

-- The event-resolution share-price series reads a vault's processing and fee events in chain order.
CREATE INDEX program_event_share_price_idx
  ON program_event (vault, slot, signature, event_index)
  WHERE name IN ('Allocated', 'Redeemed', 'ChargedFeesToUser');

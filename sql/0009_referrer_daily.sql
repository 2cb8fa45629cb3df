-- Daily builder rows per (referrer, vault, UTC day), closed by the history rollup with the vault
-- rows. Share counts and amounts are raw integers; values follow from closing_share_price.
CREATE TABLE referrer_daily (
  referrer               text    NOT NULL,
  day                    date    NOT NULL,
  vault                  text    NOT NULL,
  -- Fee shares accrued to the builder that day (ReferralFeesAccrued).
  mfee_shares            numeric NOT NULL,
  pfee_shares            numeric NOT NULL,
  closing_share_price    numeric,
  -- Shares of the bound cohort at the close.
  cohort_shares          numeric NOT NULL,
  flows_in               numeric NOT NULL,
  flows_out              numeric NOT NULL,
  attributed_users       integer NOT NULL,
  -- Signed: the builder's referred-net-deposit counter at the close.
  referred_net_deposits  numeric NOT NULL,
  -- Bit set (1 reconstructed, 2 counter untracked); writes OR into it, never clear it.
  legacy_flags           integer NOT NULL DEFAULT 0,
  partial                boolean NOT NULL DEFAULT false,
  partial_through        bigint,
  -- The route pages by (day, vault) per referrer.
  PRIMARY KEY (referrer, day, vault)
);

-- The USD price of a deposit asset at a UTC day's close as the gateway observed it (the last fresh
-- price from the price feeds published before midnight). Days that closed while no gateway ran, or
-- without a fresh price near midnight, have no row: their USD values stay null.
CREATE TABLE daily_price (
  mint          text             NOT NULL,
  day           date             NOT NULL,
  usd           double precision NOT NULL,
  -- When the feed published the price (unix seconds) and the slot it was posted at.
  publish_time  bigint           NOT NULL,
  slot          bigint           NOT NULL,
  PRIMARY KEY (mint, day)
);

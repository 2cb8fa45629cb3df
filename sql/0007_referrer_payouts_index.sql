-- Settled builder claims by referrer, newest first: the payouts route pages through them by
-- keyset (slot, signature, event_index). `wallet` would also hold the referrer for this event, but
-- the referrer is read from the event itself so the route does not depend on that extraction rule.
CREATE INDEX program_event_referrer_payout_idx
  ON program_event ((data->>'referrer'), slot DESC, signature DESC, event_index DESC)
  WHERE name = 'ReferrerWithdrawalProcessed';

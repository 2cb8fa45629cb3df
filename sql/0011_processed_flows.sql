-- Builder cohort flows now list keeper processing too: `Allocated` (a deposit processed) and
-- `Redeemed` (a withdrawal processed), whose `wallet` is the position owner taken from the
-- emitting instruction. The flow indexes of 0010 are partial on the three request/refund events,
-- which a query over five event names cannot use: they are replaced by the same indexes over all
-- five. (Rows stored before this change keep `from`, a token account, as the wallet of those two
-- events; they match no binding until the event log is backfilled again.)

DROP INDEX program_event_user_flow_idx;
DROP INDEX program_event_pair_flow_idx;

CREATE INDEX program_event_flow_idx
  ON program_event (slot DESC, signature DESC, event_index DESC)
  WHERE name IN ('DepositRequested', 'Allocated', 'WithdrawalRequested', 'Redeemed', 'RefundedDeposit');

CREATE INDEX program_event_pair_flows_idx
  ON program_event (vault, wallet, slot DESC, signature DESC, event_index DESC)
  WHERE name IN ('DepositRequested', 'Allocated', 'WithdrawalRequested', 'Redeemed', 'RefundedDeposit');

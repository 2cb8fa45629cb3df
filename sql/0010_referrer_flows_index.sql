-- Builder cohort flows (GET /v2/referrer/{address}/flows) and bind-time fields of /users.
--
-- A builder's cohort is the (vault, wallet) pairs its `UserReferrerSet` events bound. The binding
-- is permanent for a position (facts §5.4/§7: set_user_referrer needs a virgin, unbound account),
-- so a pair belongs to one builder for all of its flows.

-- The builder's bindings: its cohort, and the bind-time fields of one page of /users.
CREATE INDEX program_event_referrer_binding_idx
  ON program_event ((data->>'referrer'), vault, wallet)
  WHERE name = 'UserReferrerSet';

-- The binding of one (vault, wallet): the semi-join when flows are walked newest first.
CREATE INDEX program_event_pair_binding_idx
  ON program_event (vault, wallet)
  WHERE name = 'UserReferrerSet';

-- Flows that name their user, newest first (the page order), overall and per (vault, wallet): the
-- planner walks flows and probes bindings, or walks a builder's bindings and merges their flows.
CREATE INDEX program_event_user_flow_idx
  ON program_event (slot DESC, signature DESC, event_index DESC)
  WHERE name IN ('DepositRequested', 'WithdrawalRequested', 'RefundedDeposit');

CREATE INDEX program_event_pair_flow_idx
  ON program_event (vault, wallet, slot DESC, signature DESC, event_index DESC)
  WHERE name IN ('DepositRequested', 'WithdrawalRequested', 'RefundedDeposit');

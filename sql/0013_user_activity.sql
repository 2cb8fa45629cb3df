-- A wallet's activity feed, position history and interest earned (GET /v2/user/{wallet}/activity,
-- /v2/vault/{vault}/user/{wallet}/history and /earnings) read the event log by its `wallet` column
-- (the event's `user`; for `Allocated` and `Redeemed` the position owner taken from the emitting
-- instruction, see 0011), newest first, one page at a time.

-- Every user event of a wallet, in the feed's order (the keyset of a page).
CREATE INDEX program_event_user_activity_idx
  ON program_event (wallet, slot DESC, signature DESC, event_index DESC)
  WHERE name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed',
                 'ChargedFeesToUser', 'BundleSwitchRequested', 'BundleSwitchCompleted', 'BundleSwitchFallbackToWallet');

-- The same per vault (the feed's `vault` filter, and a position's history). Switch events have no
-- `vault` (they name a source and a target bundle): the first index finds them.
CREATE INDEX program_event_user_vault_activity_idx
  ON program_event (wallet, vault, slot DESC, signature DESC, event_index DESC)
  WHERE name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed', 'ChargedFeesToUser');

-- Date filters become slot bounds: the first slot at or after a UTC midnight.
CREATE INDEX chain_transaction_block_time_idx ON chain_transaction (block_time, slot);

-- Switches per wallet: a vault-filtered feed merges them in by their source or target bundle.
CREATE INDEX program_event_user_switch_idx
  ON program_event (wallet, slot DESC, signature DESC, event_index DESC)
  WHERE name IN ('BundleSwitchRequested', 'BundleSwitchCompleted', 'BundleSwitchFallbackToWallet');

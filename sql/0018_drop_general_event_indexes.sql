-- The event log's first indexes, (vault, slot), (wallet, slot) and (name, slot), serve no read since
-- the readers got partial indexes of their own (0007-0014): every query on program_event filters by
-- event name and uses one of those. Each event written still paid for all three: about 13% of the
-- time PostgreSQL takes to COPY a 30-day backfill's 124,000 events.
DROP INDEX IF EXISTS program_event_vault_slot_idx;
DROP INDEX IF EXISTS program_event_wallet_slot_idx;
DROP INDEX IF EXISTS program_event_name_slot_idx;

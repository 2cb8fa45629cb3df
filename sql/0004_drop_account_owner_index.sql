-- Every checkpointed account has the program as owner, so this index only slowed checkpoint writes.
DROP INDEX IF EXISTS chain_account_owner_idx;

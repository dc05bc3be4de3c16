-- The tables every operation appends to are stored after all the others
-- (tx.go, stored): their tails no longer share a B-tree leaf page with
-- records every operation reads, which under SERIALIZABLE made concurrent
-- operations on distinct accounts conflict.
UPDATE payments_kv SET tbl = 'zz0_' || tbl WHERE tbl = 'quote_expiry';
UPDATE payments_kv SET tbl = 'zz1_' || tbl WHERE tbl = 'ledger_entries';
UPDATE payments_kv SET tbl = 'zz2_' || tbl WHERE tbl = 'outbox';

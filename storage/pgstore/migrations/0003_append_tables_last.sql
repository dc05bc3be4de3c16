-- The tables every operation appends to are stored after all the others
-- (layout.go, stored): their tails no longer share a B-tree leaf page with
-- records every operation reads, which under SERIALIZABLE made concurrent
-- operations on distinct accounts conflict. The areas' tables declared so
-- (engine.TableDef.InsertsAtEnd) move when the store learns them
-- (declare.go).
UPDATE payments_kv SET tbl = 'zz1_' || tbl WHERE tbl = 'ledger_entries';
UPDATE payments_kv SET tbl = 'zz2_' || tbl WHERE tbl = 'outbox';

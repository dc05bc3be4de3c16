-- payments_kv holds no record rewritten by every payment any more: the
-- records are in their tables (version 4), the balances in
-- ledger_balances, which keeps its room for HOT updates. What stays is
-- written once and deleted (events of the history and their index
-- entries, rail reports, due work, retry entries), so its pages are
-- filled whole: the room version 2 left on each page was a third of the
-- table's heap. Pages written before keep their room until rewritten.
ALTER TABLE payments_kv SET (fillfactor = 100);

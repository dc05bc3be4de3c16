-- Leave room on every heap page so that rewriting a record (a balance, a
-- status) can be a HOT update, adding no index entry.
ALTER TABLE payments_kv SET (fillfactor = 70);

-- The values of payments_kv may be kept compressed (codec.go): codec says
-- how v is kept, NULL as the engine wrote it, 1 compressed with s2 against
-- the dictionary of the row's engine table. A row whose codec is NULL
-- costs no byte more than before: its null bitmap fits in the padding of
-- the row's header (pageinspect: a row of a 100-byte value is 141 bytes,
-- its header 24, with or without the bitmap); a compressed row costs 3
-- (the smallint, aligned). The rows written before keep NULL and are read
-- as they are; none is rewritten.
ALTER TABLE payments_kv ADD COLUMN codec smallint;

-- One dictionary per engine table (tbl is the engine's name of the table,
-- not payments_kv's tbl, which may carry a prefix: layout.go), made by the
-- first process whose writes of the table were enough, and never changed
-- once written, so every value compressed against it stays readable.
CREATE TABLE payments_kv_dicts (
	tbl  text  PRIMARY KEY,
	dict bytea NOT NULL
);

-- Every engine table lives in one ordered key-value table: tbl is the
-- engine's table name, k the record key compared byte-wise (bytea), v the
-- record.
CREATE TABLE payments_kv (
	tbl text  NOT NULL,
	k   bytea NOT NULL,
	v   bytea NOT NULL,
	PRIMARY KEY (tbl, k)
);

-- Leases taken by engine processes on items of background work (outbox
-- events, due items), so that one process at a time carries each out. A
-- lease whose expires_at passed is free again: a process that died loses
-- its leases after their time to live.
CREATE TABLE payments_leases (
	name       text        PRIMARY KEY,
	owner      text        NOT NULL,
	expires_at timestamptz NOT NULL
);

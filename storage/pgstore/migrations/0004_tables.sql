-- The user's own tables: the engine's ledger moves out of payments_kv into
-- real tables, which a finance team queries with SQL (README.md, "Your data
-- in PostgreSQL"); the rows of a store written before this migration are
-- moved by the Go step of version 4 (migrate.go) in this same transaction.
-- The areas' record tables (customers, accounts, quotes, transactions),
-- their typed columns and the view of accounts with their balances are
-- built from the areas' declarations when the engine starts (declare.go),
-- after the migrations.

-- The balance of every ledger account in every currency it moved in:
-- internal accounts (InternalAccount:...), their holds (.../held),
-- platform accounts and the world outside (external:...). Rewritten by
-- every payment: room is left on each page for HOT updates.
CREATE TABLE ledger_balances (
	account  text COLLATE "C" NOT NULL,
	currency text COLLATE "C" NOT NULL,
	balance  bigint NOT NULL,
	PRIMARY KEY (account, currency)
) WITH (fillfactor = 70);
-- The engine's key of a balance, in the engine's (byte) order.
CREATE UNIQUE INDEX ledger_balances_key ON ledger_balances (((account || '|' || currency) COLLATE "C"));

-- The journal: one row per ledger entry, as the engine wrote it ...
CREATE TABLE ledger_journal (
	id         text COLLATE "C" PRIMARY KEY,
	reference  text,
	created_at timestamptz,
	overdraft  boolean,
	doc        json NOT NULL
);

-- ... and one row per posting: amount is signed (credits positive, debits
-- negative, in minor units) and every entry sums to zero per currency, so
-- SELECT currency, sum(amount) FROM ledger_entries GROUP BY currency is
-- zero for every currency after every commit. reference is the business
-- record the entry belongs to; transaction_id the same when it is a
-- transaction.
CREATE TABLE ledger_entries (
	entry_id       text COLLATE "C" NOT NULL,
	seq            integer NOT NULL,
	reference      text,
	transaction_id text,
	account        text NOT NULL,
	currency       text NOT NULL,
	amount         bigint NOT NULL,
	created_at     timestamptz,
	PRIMARY KEY (entry_id, seq)
);
CREATE INDEX ledger_entries_reference ON ledger_entries (reference);

-- payments_raise fails the statement (and its transaction) with SQLSTATE
-- code: a commit raises PGS01 when a record its run read changed, and
-- PGL01 when a balance check failed (commit.go).
CREATE FUNCTION payments_raise(code text, detail text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION USING ERRCODE = code, MESSAGE = detail;
END
$$;

-- payments_lock takes the session advisory locks (space, k) for each k in
-- keys, in that order, and returns those that were busy: with wait, after
-- waiting for them; without, leaving them (locks.go).
CREATE FUNCTION payments_lock(space integer, keys integer[], wait boolean) RETURNS integer[]
LANGUAGE plpgsql AS $$
DECLARE
	k    integer;
	busy integer[] := '{}';
BEGIN
	FOREACH k IN ARRAY keys LOOP
		IF NOT pg_try_advisory_lock(space, k) THEN
			busy := busy || k;
			IF wait THEN
				PERFORM pg_advisory_lock(space, k);
			END IF;
		END IF;
	END LOOP;
	RETURN busy;
END
$$;

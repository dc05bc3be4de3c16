-- The user's own tables. The engine's records of customers, accounts,
-- quotes and transactions, and its ledger, move out of payments_kv into
-- real tables with typed columns (the record itself stays whole in doc),
-- which a finance team queries with SQL (README.md, "Your data in
-- PostgreSQL"). The typed columns are declared in schema.go; the rows of a
-- store written before this migration are moved by the Go step of
-- version 4 (migrate.go) in this same transaction.

CREATE TABLE customers (
	id                   text COLLATE "C" PRIMARY KEY,
	customer_type        text,
	platform_customer_id text,
	uma_address          text,
	full_name            text,
	legal_name           text,
	kyc_status           text,
	kyb_status           text,
	is_deleted           boolean,
	created_at           timestamptz,
	updated_at           timestamptz,
	doc                  json NOT NULL
);

-- The records of internal accounts; the view internal_accounts below adds
-- their balances.
CREATE TABLE internal_account_records (
	id          text COLLATE "C" PRIMARY KEY,
	customer_id text,
	type        text,
	status      text,
	currency    text,
	created_at  timestamptz,
	updated_at  timestamptz,
	doc         json NOT NULL
);

CREATE TABLE external_accounts (
	id                              text COLLATE "C" PRIMARY KEY,
	customer_id                     text,
	status                          text,
	currency                        text,
	account_type                    text,
	beneficiary_verification_status text,
	created_at                      timestamptz,
	updated_at                      timestamptz,
	doc                             json NOT NULL
);

CREATE TABLE quotes (
	id                     text COLLATE "C" PRIMARY KEY,
	status                 text,
	customer_id            text,
	receiver_customer_id   text,
	source_type            text,
	source_account_id      text,
	destination_type       text,
	destination_account_id text,
	sending_currency       text,
	receiving_currency     text,
	total_sending_amount   bigint,
	total_receiving_amount bigint,
	exchange_rate          numeric,
	fees_included          bigint,
	transaction_id         text,
	created_at             timestamptz,
	expires_at             timestamptz,
	doc                    json NOT NULL
);

CREATE TABLE transactions (
	id                     text COLLATE "C" PRIMARY KEY,
	status                 text,
	type                   text,
	direction              text,
	customer_id            text,
	platform_customer_id   text,
	source_account_id      text,
	destination_account_id text,
	sent_amount            bigint,
	sent_currency          text,
	received_amount        bigint,
	received_currency      text,
	exchange_rate          numeric,
	fees                   bigint,
	quote_id               text,
	settled_at             timestamptz,
	created_at             timestamptz,
	updated_at             timestamptz,
	doc                    json NOT NULL
);
CREATE INDEX transactions_created_at ON transactions (created_at);

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

-- Internal accounts with their balances: balance is what the account may
-- spend, held what executed payments hold until they settle.
CREATE VIEW internal_accounts AS
SELECT r.id, r.customer_id, r.type, r.status, r.currency,
       coalesce(b.balance, 0) AS balance,
       coalesce(h.balance, 0) AS held,
       coalesce(b.balance, 0) + coalesce(h.balance, 0) AS total_balance,
       r.created_at, r.updated_at, r.doc
FROM internal_account_records r
LEFT JOIN ledger_balances b ON b.account = r.id AND b.currency = r.currency
LEFT JOIN ledger_balances h ON h.account = r.id || '/held' AND h.currency = r.currency;

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

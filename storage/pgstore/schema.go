package pgstore

import (
	"strings"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/paygrid/payments/internal/engine"
)

// The shape of the engine's tables on PostgreSQL.
//
// The engine's port carries named tables of byte records; this file is where
// the store learns which of them are the user's records and how they look as
// rows. Each table below is a real table: the record's key in id, the
// columns a finance team queries (typed, taken from the record's JSON when
// it is written), and the whole record in doc (json, kept byte for byte, so
// that the engine reads back exactly what it wrote). Every other engine
// table (indexes, outbox, idempotency, due work...) lives in payments_kv,
// one ordered key-value table.
//
// The ledger is not declared here: its two engine tables are stored by
// ledger.go as ledger_balances (one row per account and currency) and
// ledger_journal with ledger_entries (one row per entry, one per posting).
//
// The columns are declared by the store rather than by the engine's table
// registry because they are PostgreSQL's business (names, SQL types, the
// migrations that create them) and because the engine's port stays bytes:
// memstore and boltstore need nothing of it. The paths name members of the
// records' JSON encoding, which the areas own; TestSchema_PathsExist writes
// real records through the engine and fails when a declared path is missing,
// and TestSchema_MatchesMigrations compares these declarations with the
// tables the migrations create.

// column is one typed column of a record table: its SQL name and type, and
// the member of the record's JSON it is taken from (a dotted path of object
// members). A member that is absent, null or not of the column's type is
// stored as NULL.
type column struct {
	name string
	typ  colType
	path string
	// absent is the value of a record without the member ("" for NULL).
	absent string
}

// colType is the SQL type of a column.
type colType int

const (
	colText colType = iota
	colBigint
	colNumeric
	colTimestamptz
	colBoolean
)

var colTypeNames = [...]string{colText: "text", colBigint: "bigint", colNumeric: "numeric", colTimestamptz: "timestamptz", colBoolean: "boolean"}

func (c colType) String() string { return colTypeNames[c] }

// shape is one record table: the engine's table name, the SQL table and
// its typed columns.
type shape struct {
	engine string
	sql    string
	cols   []column
	paths  *pathNode     // cols' paths, for extract
	absent []pgtype.Text // cols' values when a record lacks them
	// journal marks ledger_entries: its records also write one row of
	// ledger_entries per posting (ledger.go).
	journal bool

	// getSQL reads one record, made once from the declaration.
	getSQL string
}

// shapes are the record tables, by engine table name.
var shapes = map[string]*shape{}

func declare(engine, sql string, cols ...column) *shape {
	s := &shape{engine: engine, sql: sql, cols: cols}
	s.paths, s.absent = newPaths(cols), absentValues(cols)
	s.statements()
	shapes[engine] = s
	return s
}

func text(name, path string) column   { return column{name: name, typ: colText, path: path} }
func bigint(name, path string) column { return column{name: name, typ: colBigint, path: path} }
func numeric(name, path string) column {
	return column{name: name, typ: colNumeric, path: path}
}
func timestamptz(name, path string) column {
	return column{name: name, typ: colTimestamptz, path: path}
}
func boolean(name, path string) column { return column{name: name, typ: colBoolean, path: path} }

// The record tables. Adding a column means a migration that adds it (and
// fills it from doc) and a line here; TestSchema_MatchesMigrations keeps
// the two in step.
var (
	_ = declare("customers", "customers",
		text("customer_type", "customerType"),
		text("platform_customer_id", "platformCustomerId"),
		text("uma_address", "umaAddress"),
		text("full_name", "fullName"),
		text("legal_name", "businessInfo.legalName"),
		text("kyc_status", "kycStatus"),
		text("kyb_status", "kybStatus"),
		boolean("is_deleted", "isDeleted"),
		timestamptz("created_at", "createdAt"),
		timestamptz("updated_at", "updatedAt"))
	_ = declare("internal_accounts", "internal_account_records",
		text("customer_id", "customerId"),
		text("type", "type"),
		text("status", "status"),
		text("currency", "currency"),
		timestamptz("created_at", "createdAt"),
		timestamptz("updated_at", "updatedAt"))
	_ = declare("external_accounts", "external_accounts",
		text("customer_id", "customerId"),
		text("status", "status"),
		text("currency", "currency"),
		text("account_type", "accountInfo.accountType"),
		text("beneficiary_verification_status", "beneficiaryVerificationStatus"),
		timestamptz("created_at", "createdAt"),
		timestamptz("updated_at", "updatedAt"))
	_ = declare("quotes", "quotes",
		text("status", "status"),
		text("customer_id", "customerId"),
		text("receiver_customer_id", "receiverCustomerId"),
		text("source_type", "source.sourceType"),
		text("source_account_id", "source.accountId"),
		text("destination_type", "destination.destinationType"),
		text("destination_account_id", "destination.accountId"),
		text("sending_currency", "sendingCurrency.code"),
		text("receiving_currency", "receivingCurrency.code"),
		bigint("total_sending_amount", "totalSendingAmount"),
		bigint("total_receiving_amount", "totalReceivingAmount"),
		numeric("exchange_rate", "exchangeRate"),
		bigint("fees_included", "feesIncluded"),
		text("transaction_id", "transactionId"),
		timestamptz("created_at", "createdAt"),
		timestamptz("expires_at", "expiresAt"))
	_ = declare("transactions", "transactions",
		text("status", "status"),
		text("type", "type"),
		text("direction", "direction"),
		text("customer_id", "customerId"),
		text("platform_customer_id", "platformCustomerId"),
		text("source_account_id", "source.accountId"),
		text("destination_account_id", "destination.accountId"),
		bigint("sent_amount", "sentAmount.amount"),
		text("sent_currency", "sentAmount.currency.code"),
		bigint("received_amount", "receivedAmount.amount"),
		text("received_currency", "receivedAmount.currency.code"),
		numeric("exchange_rate", "exchangeRate"),
		bigint("fees", "fees"),
		text("quote_id", "quoteId"),
		timestamptz("settled_at", "settledAt"),
		timestamptz("created_at", "createdAt"),
		timestamptz("updated_at", "updatedAt"))
	// The engine's ledger entries: one row per entry in ledger_journal
	// (the entry as the engine wrote it) and one per posting in
	// ledger_entries (ledger.go).
	journalShape = declare(engine.TableLedgerEntries, "ledger_journal",
		text("reference", "reference"),
		timestamptz("created_at", "createdAt"),
		column{"overdraft", colBoolean, "overdraft", "false"})
)

// statements makes the table's read statement from its declaration.
func (s *shape) statements() {
	s.getSQL = "SELECT xmin::text::bigint, doc::text FROM " + ident(s.sql) + " WHERE id = $1"
}

// insert returns the insert (upsert: or replace) of rows of the table,
// whose columns (columnArgs) it adds to st. Typed values travel as text and
// are cast by PostgreSQL.
func (s *shape) insert(st *stmt, args []any, upsert bool) string {
	names := make([]string, 0, len(s.cols)+2)
	typs := make([]string, 0, len(s.cols)+2)
	names, typs = append(names, "id"), append(typs, "text")
	var b strings.Builder
	b.WriteString("INSERT INTO " + ident(s.sql) + " (id")
	for _, c := range s.cols {
		b.WriteString(", " + c.name)
		names, typs = append(names, c.name), append(typs, "text")
	}
	names, typs = append(names, "doc"), append(typs, "text")
	b.WriteString(", doc) SELECT u.id")
	for _, c := range s.cols {
		b.WriteString(", u." + c.name + "::" + c.typ.String())
	}
	b.WriteString(", u.doc::json FROM " + st.rows("u", names, typs, args...))
	if upsert {
		b.WriteString(" ON CONFLICT (id) DO UPDATE SET ")
		for _, c := range s.cols {
			b.WriteString(c.name + " = excluded." + c.name + ", ")
		}
		b.WriteString("doc = excluded.doc")
	}
	return b.String()
}

func ident(name string) string { return `"` + name + `"` }

// init marks the journal, whose writes also write its postings.
func init() { journalShape.journal = true }

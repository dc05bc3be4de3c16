package pgstore_test

import (
	"strings"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shapesWorld fills a world on a new schema, paying a few more payments so
// that the rows written after the first commits name their shapes; it
// returns the store, the records as the engine wrote them, and the schema.
func shapesWorld(t *testing.T, before func(schema string)) (*recording, *world, string) {
	t.Helper()
	store, schema := openSchema(t)
	if before != nil {
		before(schema)
	}
	rec := &recording{Store: store, wrote: map[[2]string][]byte{}}
	w := newWorld(t, rec)
	for range 3 {
		_, err := w.eng.Quotes.Create(ctx, transfer(w.payer, w.payee, 7, true))
		require.NoError(t, err)
	}
	return rec, w, schema
}

// records returns the records of table the engine wrote last, by key.
func (r *recording) records(table string) map[string]string {
	out := map[string]string{}
	for k, v := range r.wrote {
		if k[0] == table && v != nil {
			out[k[1]] = string(v)
		}
	}
	return out
}

// TestTables_DocShapesKeptOnce: a doc that holds nothing but where its
// members go (its "~" member and empty objects) is kept once per table in
// payments_doc_objects, and the rows written once it is kept name it
// instead of holding it; a doc with any other member (a funding's
// description) holds it, where a user's query reads it. Every record reads
// back byte for byte, through this store and through another process's,
// which learns the shapes from the rows' select.
func TestTables_DocShapesKeptOnce(t *testing.T) {
	rec, _, schema := shapesWorld(t, nil)
	c := sqlConn(t, schema)
	shapes := pairs(t, c, `SELECT tbl || '.' || val, obj FROM payments_doc_objects WHERE col = '~'`)
	for _, table := range []string{"transactions", "quotes"} {
		named := pairs(t, c, `SELECT id, doc->>'~' FROM `+table+` WHERE left(doc::text, 7) = '{"~":"='`)
		assert.NotEmpty(t, named, "%s: rows name their shape", table)
		for id, name := range named {
			shape, ok := shapes[table+"."+name]
			if assert.True(t, ok, "%s %s names a kept shape", table, id) {
				assert.True(t, strings.HasPrefix(shape, `{"~":"`), "a shape is a doc that leaves members out: %s", shape)
				assert.Greater(t, len(shape), len(`{"~":"`+name+`"}`), "naming the shape is shorter")
			}
		}
		require.NoError(t, rec.View(ctx, func(tx payments.Tx) error { return readsBack(t, tx, table, rec.records(table), "") }))
	}
	var description string
	require.NoError(t, c.QueryRow(ctx, `SELECT doc->>'description' FROM transactions WHERE doc->>'description' IS NOT NULL LIMIT 1`).Scan(&description))
	assert.Equal(t, "Sandbox funding", description, "a doc holding a member is no shape")

	other, err := pgstore.Open(ctx, pgtest.DSN(t), &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	t.Cleanup(func() { _ = other.Close() })
	require.NoError(t, other.DeclareTables(ctx, rec.tables))
	for _, table := range []string{"transactions", "quotes"} {
		require.NoError(t, other.View(ctx, func(tx payments.Tx) error { return readsBack(t, tx, table, rec.records(table), "another process") }))
	}
}

// TestTables_DocShapeNamedOtherwise: a shape kept under its name with
// other bytes (two shapes whose names agree) is never used for this one:
// its rows hold it whole, and read back byte for byte.
func TestTables_DocShapeNamedOtherwise(t *testing.T) {
	_, _, first := shapesWorld(t, nil)
	var name, shape string
	require.NoError(t, sqlConn(t, first).QueryRow(ctx, `SELECT doc->>'~', o.obj FROM transactions t
		JOIN payments_doc_objects o ON o.tbl = 'transactions' AND o.col = '~' AND o.val = t.doc->>'~'
		GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`).Scan(&name, &shape))

	const other = `{"~":"a1","source":{}}`
	rec, _, schema := shapesWorld(t, func(schema string) {
		_, err := sqlConn(t, schema).Exec(ctx, `INSERT INTO payments_doc_objects (tbl, col, val, obj) VALUES ('transactions', '~', $1, $2)`, name, other)
		require.NoError(t, err)
	})
	c := sqlConn(t, schema)
	var naming, whole int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FILTER (WHERE doc->>'~' = $1), count(*) FILTER (WHERE doc::text = $2) FROM transactions`, name, shape).Scan(&naming, &whole))
	assert.Zero(t, naming, "no row names the shape kept otherwise")
	assert.Positive(t, whole, "its rows hold it whole")
	require.NoError(t, rec.View(ctx, func(tx payments.Tx) error {
		return readsBack(t, tx, "transactions", rec.records("transactions"), "")
	}))
}

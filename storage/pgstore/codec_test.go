package pgstore_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noteTable is an engine table no area declares: its records live in
// payments_kv.
const noteTable = "kvz_notes"

// note is the value of the i-th record of a writer: JSON of about 1 KB,
// shaped as the engine's records are (the same members, other ids and
// times).
func note(writer string, i int) []byte {
	return fmt.Appendf(nil, `{"id":"Note:%s-%08d","type":"INCOMING_PAYMENT.COMPLETED","timestamp":"2026-11-29T03:%02d:%02d.%03dZ",`+
		`"data":{"id":"Transaction:01a22558-6093-7852-80b3-%012d","status":"COMPLETED","type":"INCOMING","direction":"CREDIT",`+
		`"source":{"sourceType":"REALTIME_FUNDING","currency":"USD","customerId":"Customer:01a22558-6086-7240-80e3-%012d"},`+
		`"destination":{"destinationType":"ACCOUNT","accountId":"InternalAccount:01a22558-6086-7240-80e3-%012d","currency":"USD"},`+
		`"receivedAmount":{"amount":%d,"currency":{"code":"USD","name":"United States Dollar","symbol":"$","decimals":2}},`+
		`"description":"Sandbox funding","settledAt":"2026-11-29T03:27:58.611Z","createdAt":"2026-11-29T03:27:58.611Z",`+
		`"updatedAt":"2026-11-29T03:27:58.611Z"},"resource":"Transaction:01a22558-6093-7852-80b3-%012d","status":"NOT_SENT",`+
		`"attempts":0,"reason":"no webhook endpoint was configured","finishedAt":"2026-11-29T03:27:58.611Z","writer":"%s"}`,
		writer, i, i/60%60, i%60, i%1000, i*7, i*3, i*3+1, 1000*i+17, i*7, writer)
}

func noteKey(writer string, i int) string { return fmt.Sprintf("%s|%08d", writer, i) }

// writeNotes writes the records from..to-1 of writer, ten an Update.
func writeNotes(t *testing.T, s *pgstore.Store, writer string, from, to int) {
	t.Helper()
	require.NoError(t, putNotes(s, writer, from, to))
}

func putNotes(s *pgstore.Store, writer string, from, to int) error {
	for i := from; i < to; i += 10 {
		if err := s.Update(ctx, func(tx payments.Tx) error {
			for j := i; j < min(i+10, to); j++ {
				if err := tx.Put(noteTable, noteKey(writer, j), note(writer, j)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// readNotes checks that s reads the records from..to-1 of writer exactly
// as they were written, by Get in an Update and in a View, and by Scan.
func readNotes(t *testing.T, s *pgstore.Store, writer string, from, to int) {
	t.Helper()
	for _, update := range []bool{false, true} {
		run := s.View
		if update {
			run = s.Update
		}
		require.NoError(t, run(ctx, func(tx payments.Tx) error {
			for i := from; i < to; i++ {
				v, err := tx.Get(noteTable, noteKey(writer, i))
				if err != nil {
					return err
				}
				if !assert.Equal(t, string(note(writer, i)), string(v), "%s Get (update %v)", noteKey(writer, i), update) {
					return nil
				}
			}
			i := from
			err := tx.Scan(noteTable, payments.ScanOptions{Prefix: writer + "|", After: noteKey(writer, from-1)}, func(k string, v []byte) (bool, error) {
				if i >= to {
					return false, nil
				}
				assert.Equal(t, noteKey(writer, i), k)
				assert.Equal(t, string(note(writer, i)), string(v), "%s Scan (update %v)", k, update)
				i++
				return true, nil
			})
			assert.Equal(t, to, i, "scanned")
			return err
		}))
	}
}

// kvCodecs returns, for writer's records in payments_kv, how many are kept
// compressed, and their mean size there and as written.
func kvCodecs(t *testing.T, c *pgx.Conn, writer string) (compressed int, stored, written float64) {
	t.Helper()
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*), coalesce(avg(octet_length(v)), 0) FROM payments_kv
		WHERE tbl = $1 AND k >= $2 AND k < $3 AND codec = 1`, noteTable, []byte(writer+"|"), []byte(writer+"}")).Scan(&compressed, &stored))
	return compressed, stored, float64(len(note(writer, 1000)))
}

// TestCodec_KeyValueValuesCompressed: once a process wrote enough of a
// table's values, it makes the table's dictionary, and the values it
// writes after are kept in payments_kv compressed against it, in a small
// part of their size; every value reads back byte for byte, by Get and
// Scan, in Updates and Views, in this process and in another that starts
// later; the values written before the dictionary stay as written and read
// the same.
func TestCodec_KeyValueValuesCompressed(t *testing.T) {
	s, schema := openSchema(t)
	c := sqlConn(t, schema)
	writeNotes(t, s, "a", 0, 100) // about 100 KB: the dictionary is made
	var dicts int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM payments_kv_dicts WHERE tbl = $1", noteTable).Scan(&dicts))
	require.Equal(t, 1, dicts, "the table's dictionary")
	n, _, _ := kvCodecs(t, c, "a")
	raw := 100 - n
	assert.Positive(t, raw, "the values written before the dictionary stay as written")
	var asWritten int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FROM payments_kv WHERE tbl = $1 AND codec IS NULL AND v = ANY($2)`,
		noteTable, func() (vs [][]byte) {
			for i := range 100 {
				vs = append(vs, note("a", i))
			}
			return vs
		}()).Scan(&asWritten))
	assert.Equal(t, raw, asWritten, "kept byte for byte")

	writeNotes(t, s, "a", 100, 200)
	n, stored, written := kvCodecs(t, c, "a")
	assert.GreaterOrEqual(t, n, 100, "the values written once the dictionary exists are compressed")
	assert.Less(t, stored, written/4, "a value of %.0f bytes kept in %.0f", written, stored)
	t.Logf("a value of %.0f bytes is kept in %.0f", written, stored)
	readNotes(t, s, "a", 0, 200)

	// Another process reads them, loading the dictionary.
	other, err := pgstore.Open(ctx, pgtest.DSN(t), &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	defer other.Close()
	readNotes(t, other, "a", 0, 200)
	assert.Equal(t, s.Dict(noteTable), other.Dict(noteTable))
}

// TestCodec_RacingStoresShareOneDictionary: two processes on one schema
// each collect values of the same table; the first to have enough makes
// the table's dictionary, and the other, whose own is refused, keeps the
// one that won. Both then compress with it and each reads the other's
// values; so do processes that reach the point together.
func TestCodec_RacingStoresShareOneDictionary(t *testing.T) {
	a, schema := openSchema(t)
	b, err := pgstore.Open(ctx, pgtest.DSN(t), &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	defer b.Close()
	c := sqlConn(t, schema)

	writeNotes(t, b, "b", 0, 40) // b has collected values, not enough yet
	writeNotes(t, a, "a", 0, 100)
	require.NotNil(t, a.Dict(noteTable), "a made the dictionary")
	assert.Nil(t, b.Dict(noteTable))
	writeNotes(t, b, "b", 40, 100) // b has enough: its own is refused
	var stored []byte
	require.NoError(t, c.QueryRow(ctx, "SELECT dict FROM payments_kv_dicts WHERE tbl = $1", noteTable).Scan(&stored))
	assert.Equal(t, stored, a.Dict(noteTable))
	assert.Equal(t, stored, b.Dict(noteTable), "b keeps the dictionary that won")

	writeNotes(t, a, "a", 100, 150)
	writeNotes(t, b, "b", 100, 150)
	for _, w := range []string{"a", "b"} {
		n, _, _ := kvCodecs(t, c, w)
		assert.GreaterOrEqual(t, n, 50, "%s compresses", w)
	}
	readNotes(t, a, "b", 0, 150)
	readNotes(t, b, "a", 0, 150)

	// Four processes making the dictionary of another table together.
	stores := make([]*pgstore.Store, 4)
	shared := pgtest.Schema(t)
	for i := range stores {
		stores[i], err = pgstore.Open(ctx, pgtest.DSN(t), &pgstore.Options{Schema: shared})
		require.NoError(t, err)
		defer stores[i].Close()
	}
	done := make(chan error)
	for i, s := range stores {
		go func() { done <- putNotes(s, string(rune('p'+i)), 0, 150) }()
	}
	for range stores {
		require.NoError(t, <-done)
	}
	for i, s := range stores {
		require.NotNil(t, s.Dict(noteTable), "store %d", i)
		assert.Equal(t, stores[0].Dict(noteTable), s.Dict(noteTable), "store %d", i)
		readNotes(t, s, string(rune('p'+(i+1)%len(stores))), 0, 150)
	}
}

// TestCodec_EventHistoryCompressed: with the event history on (as the
// sandbox server's dashboard keeps it), every event is a record of
// event_log in payments_kv of over a kilobyte; once there are enough,
// they are kept compressed in a small part of that, and the history the
// engine lists is the same before and after the dictionary exists, every
// record byte for byte as the engine encodes it.
func TestCodec_EventHistoryCompressed(t *testing.T) {
	s, schema := openSchema(t)
	c := sqlConn(t, schema)
	w := newWorld(t, s, func(cfg *payments.Config) { cfg.EventHistory = true })
	history := func() map[string]payments.WebhookDelivery {
		out := map[string]payments.WebhookDelivery{}
		for d, err := range w.eng.Webhooks.ListDeliveriesAll(ctx, payments.DeliveryFilter{}, payments.ListParams{}) {
			require.NoError(t, err)
			out[d.Event.ID] = d
		}
		return out
	}
	// settled waits until the history holds at least n events.
	settled := func(n int) {
		t.Helper()
		require.Eventually(t, func() bool {
			var got int
			require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM payments_kv WHERE tbl = 'event_log'").Scan(&got))
			return got >= n
		}, 30*time.Second, 20*time.Millisecond)
	}
	pay := func(n int) {
		for range n {
			_, err := w.eng.Quotes.Create(ctx, transfer(w.payer, w.payee, 1, true))
			require.NoError(t, err)
		}
	}
	settled(10)
	var dicts int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM payments_kv_dicts").Scan(&dicts))
	require.Zero(t, dicts, "not enough events yet")
	before := history()
	require.NotEmpty(t, before)

	for i := 0; ; i++ {
		pay(5)
		require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM payments_kv_dicts WHERE tbl = 'event_log'").Scan(&dicts))
		if dicts == 1 {
			break
		}
		require.Less(t, i, 40, "no dictionary of event_log after %d payments", 5*i)
	}
	var all int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM payments_kv WHERE tbl = 'event_log'").Scan(&all))
	pay(10)
	settled(all + 30)

	after := history()
	for id, d := range before {
		assert.Equal(t, d, after[id], "event %s, listed before the dictionary existed", id)
	}
	var compressed int
	var stored float64
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*), avg(octet_length(v)) FROM payments_kv WHERE tbl = 'event_log' AND codec = 1").
		Scan(&compressed, &stored))
	assert.GreaterOrEqual(t, compressed, 30, "the events written once the dictionary exists")

	// Every record of event_log as the engine encodes it.
	n, size := 0, 0
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		return tx.Scan("event_log", payments.ScanOptions{}, func(k string, v []byte) (bool, error) {
			var d payments.WebhookDelivery
			require.NoError(t, json.Unmarshal(v, &d), "%s", v)
			again, err := json.Marshal(d)
			require.NoError(t, err)
			assert.Equal(t, string(again), string(v))
			assert.Equal(t, after[d.Event.ID], d, "listed by the engine")
			n, size = n+1, size+len(v)
			return true, nil
		})
	}))
	assert.Equal(t, len(after), n)
	mean := float64(size) / float64(n)
	assert.Less(t, stored, mean/4, "an event of %.0f bytes kept in %.0f", mean, stored)
	t.Logf("%d events, %d compressed: %.0f bytes kept in %.0f", n, compressed, mean, stored)
}

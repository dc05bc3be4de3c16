package payments

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/duesnap"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/ledger"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes"
	"github.com/paygrid/payments/validate"
)

// Sandbox groups the sandbox-only operations: the simulations of the
// reference's /sandbox routes (funding an internal account, a payer funding
// a quote, an incoming payment) and, ours, the control of state and time:
// export the whole state as one document, import one to start from a
// fixture, reset to a fresh platform, and move a test clock forward
// applying everything due on the way. Every operation refuses outside
// sandbox mode, and works through the Store port alone, on every store.
type Sandbox struct{ e *engine.Handle }

// newSandbox returns the Sandbox group of h.
func newSandbox(h *engine.Handle) Sandbox { return Sandbox{h} }

// Enabled reports whether sandbox-only operations are enabled
// (Config.Sandbox).
func (s Sandbox) Enabled() bool { return s.e.Config.Sandbox }

// SandboxStateFormat names the version of the SandboxState document.
const SandboxStateFormat = "payments-sandbox-state/1"

// SandboxState is the whole state of a sandbox engine as one JSON document:
// every table's records in key order. API tokens are not part of it (the
// credentials stay with the server that holds them), nor are index entries
// (an import rebuilds them from the records).
type SandboxState struct {
	// Format is SandboxStateFormat.
	Format string `json:"format"`
	// ExportedAt is the engine clock's reading at export.
	ExportedAt time.Time `json:"exportedAt"`
	// Tables maps a table name to its records in key order.
	Tables map[string][]StateRecord `json:"tables"`
}

// StateRecord is one record of a SandboxState table: Value holds it when it
// is JSON (as almost every record is), Base64 when it is other bytes, and
// neither when it is empty.
type StateRecord struct {
	Key    string          `json:"key"`
	Value  json.RawMessage `json:"value,omitempty"`
	Base64 string          `json:"base64,omitempty"`
}

// Export returns the whole sandbox state as one document.
func (s Sandbox) Export(ctx context.Context) (_ *SandboxState, err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "Export")
	defer op.End(&err)
	if err := s.e.RequireSandbox(); err != nil {
		return nil, err
	}
	doc := &SandboxState{Format: SandboxStateFormat, ExportedAt: s.e.Now(), Tables: map[string][]StateRecord{}}
	err = s.e.Store.View(ctx, func(tx engine.Tx) error {
		for _, table := range s.e.Registry.StateTables() {
			var recs []StateRecord
			err := tx.Scan(table, engine.ScanOptions{}, func(k string, v []byte) (bool, error) {
				recs = append(recs, encodeStateRecord(k, v))
				return true, nil
			})
			if err != nil {
				return err
			}
			if len(recs) > 0 {
				doc.Tables[table] = recs
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return doc, nil
}

// encodeStateRecord keeps v as JSON when encoding it again gives the same
// bytes, else as base64.
func encodeStateRecord(k string, v []byte) StateRecord {
	if len(v) == 0 {
		return StateRecord{Key: k}
	}
	if json.Valid(v) {
		var buf bytes.Buffer
		if json.Compact(&buf, v) == nil && bytes.Equal(buf.Bytes(), v) {
			return StateRecord{Key: k, Value: v}
		}
	}
	return StateRecord{Key: k, Base64: base64.StdEncoding.EncodeToString(v)}
}

// Import replaces the sandbox state with doc (the API tokens stay): every
// table is cleared and refilled and the indexes are rebuilt, in one
// transaction. A document of another format, naming an unknown table,
// holding a record that is not valid, or whose ledger does not balance
// (the checks of CheckLedger) is refused with INVALID_INPUT naming the
// offending member, and nothing changes.
func (s Sandbox) Import(ctx context.Context, doc *SandboxState) (err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "Import")
	defer op.End(&err)
	if err := s.e.RequireSandbox(); err != nil {
		return err
	}
	if err := checkStateDocument(&s.e.Registry, doc); err != nil {
		return err
	}
	err = s.e.Update(ctx, func(t *engine.Txn) error {
		if err := clearTables(t.Tx, s.e.Registry.WithIndexTables(s.e.Registry.StateTables())); err != nil {
			return err
		}
		for table, recs := range doc.Tables {
			for _, r := range recs {
				if err := t.Tx.Put(table, r.Key, decodeStateRecord(r)); err != nil {
					return err
				}
			}
		}
		if err := s.e.Registry.RebuildIndexes(t.Tx); err != nil {
			s.e.Log.Info("payments: sandbox import refused", "err", err)
			return engine.Invalid(validate.Errors{{Field: "tables", Message: "tables holds a record of an indexed table that cannot be read"}})
		}
		if err := ledger.CheckTx(t.Tx); err != nil {
			return engine.Invalid(validate.Errors{{Field: "tables." + engine.TableLedgerEntries, Message: "the ledger does not balance: " + err.Error()}})
		}
		return nil
	})
	if err == nil {
		platform.ForgetTokens(s.e)
	}
	return err
}

// checkStateDocument checks the shape of an import document.
func checkStateDocument(r *engine.Registry, doc *SandboxState) error {
	var fe validate.Errors
	if doc.Format != SandboxStateFormat {
		fe.Add("format", nil, "format must be %s", SandboxStateFormat)
	}
	for _, name := range r.StateTables() {
		if r.Tables[name].Required && doc.Tables[name] == nil {
			fe.Add("tables."+name, nil, "tables.%s (the platform configuration) is required", name)
		}
	}
	for _, table := range slices.Sorted(maps.Keys(doc.Tables)) {
		if d := r.Tables[table]; d == nil || d.Credentials {
			fe.Add("tables."+table, nil, "%s is not a table of the sandbox state (tokens and index entries are not imported)", table)
			continue
		}
		for i, r := range doc.Tables[table] {
			if _, err := base64.StdEncoding.DecodeString(r.Base64); err != nil || (r.Value != nil && r.Base64 != "") || r.Key == "" {
				field := validate.Index("tables."+table, i)
				fe.Add(field, nil, "%s needs a key and at most one of value (JSON) or base64", field)
			}
		}
		checkStateRecords(r, &fe, table, doc.Tables[table])
	}
	return engine.Invalid(fe.Err())
}

// decodeStateRecord returns the bytes of r (checked by checkStateDocument).
func decodeStateRecord(r StateRecord) []byte {
	if r.Value != nil {
		var buf bytes.Buffer
		if json.Compact(&buf, r.Value) == nil {
			return buf.Bytes()
		}
		return r.Value
	}
	b, _ := base64.StdEncoding.DecodeString(r.Base64)
	return b
}

// clearTables deletes every record of tables.
func clearTables(tx engine.Tx, tables []string) error {
	for _, table := range tables {
		var keys []string
		err := tx.Scan(table, engine.ScanOptions{}, func(k string, _ []byte) (bool, error) {
			keys = append(keys, k)
			return true, nil
		})
		if err != nil {
			return err
		}
		for _, k := range keys {
			if err := tx.Delete(table, k); err != nil {
				return err
			}
		}
	}
	return nil
}

// Reset returns the sandbox to a fresh platform, seeded as at first start
// (Config.Platform). With rotateToken the API tokens go too and a new one
// with every permission is created and returned; without, the tokens stay
// and Reset returns nil.
func (s Sandbox) Reset(ctx context.Context, rotateToken bool) (_ *platform.CreatedToken, err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "Reset")
	defer op.End(&err)
	if err := s.e.RequireSandbox(); err != nil {
		return nil, err
	}
	tables := s.e.Registry.StateTables()
	if rotateToken {
		tables = append(tables, s.e.Registry.CredentialTables()...)
	}
	err = s.e.Update(ctx, func(t *engine.Txn) error {
		if err := clearTables(t.Tx, s.e.Registry.WithIndexTables(tables)); err != nil {
			return err
		}
		return platform.Reseed(t)
	})
	platform.ForgetTokens(s.e)
	if err != nil || !rotateToken {
		return nil, err
	}
	return platform.NewService(s.e).CreateToken(ctx, platform.CreateTokenRequest{Name: "sandbox", Permissions: []platform.Permission{platform.PermView, platform.PermTransact, platform.PermManage}})
}

// Fund credits amount to an internal account from the sandbox funding
// source as a deposit: a COMPLETED INCOMING transaction announced as
// INCOMING_PAYMENT.COMPLETED, then INTERNAL_ACCOUNT.BALANCE_UPDATED
// (package quotes, Sandbox.Fund).
func (s Sandbox) Fund(ctx context.Context, id string, amount int64) (_ *accounts.InternalAccountView, err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "Fund")
	defer op.End(&err)
	return quotes.NewSandbox(s.e).Fund(ctx, id, amount)
}

// Send simulates the payer funding a real-time funded quote (POST
// /sandbox/send; package quotes, Sandbox.Send).
func (s Sandbox) Send(ctx context.Context, quoteID, currency string, amount int64) (_ *quotes.Transaction, err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "Send")
	defer op.End(&err)
	return quotes.NewSandbox(s.e).Send(ctx, quoteID, currency, amount)
}

// Receive deposits an incoming UMA payment from a sandbox counterparty
// (package quotes, Sandbox.Receive).
func (s Sandbox) Receive(ctx context.Context, req quotes.ReceiveRequest) (_ *quotes.Transaction, err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "Receive")
	defer op.End(&err)
	return quotes.NewSandbox(s.e).Receive(ctx, req)
}

// ClockAdvance asks to move a sandbox clock forward by Duration or to To
// (exactly one of them).
type ClockAdvance struct {
	// Duration is how far to move; it must be positive.
	Duration time.Duration
	// To is the instant to move to; it must not be before the clock's
	// reading.
	To time.Time
}

// SandboxClockLimit is the latest instant a sandbox clock may be advanced
// to. Records carry their instants as RFC 3339 text, which ends with year
// 9999, and the engine schedules work well after the clock's reading
// (expiries, retries, validity periods of years): the limit leaves them
// about a thousand years, and an advance past it is INVALID_INPUT.
var SandboxClockLimit = time.Date(9000, 1, 1, 0, 0, 0, 0, time.UTC)

// maxDuePasses bounds the rounds of due work and deliveries one instant
// gets (each round may make more work due at the same instant).
const maxDuePasses = 64

// Advance moves a sandbox clock forward as a asks, applying everything that
// falls due on the way in order: it runs what is due now, then stops the
// clock (through moveTo, which moves it forward to an instant and never
// back) at each later instant some work or webhook delivery is due, runs
// the due work and delivers the webhooks there (RunDue), and does the same
// at the target. It returns the target instant.
//
// The stops are those of the work due by the target when the advance
// started (the due items and undelivered events, with their retries):
// work scheduled while it runs, by requests or by the work it applies,
// applies at those stops and at the target without stops of its own, so
// that the advance's cost follows the work due when it started (a steady
// writer facing a failing webhook endpoint would otherwise add a stop a
// second ahead at every stop).
//
// A request that would move the clock backwards, or past
// SandboxClockLimit, is INVALID_INPUT naming "to" (or "duration"), and
// nothing moves.
func (s Sandbox) Advance(ctx context.Context, a ClockAdvance, moveTo func(time.Time)) (_ time.Time, err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "Advance")
	defer op.End(&err)
	if err := s.e.RequireSandbox(); err != nil {
		return time.Time{}, err
	}
	now := s.e.Now()
	var fe validate.Errors
	switch {
	case a.Duration != 0 && !a.To.IsZero():
		fe.Add("to", nil, "give either duration or to, not both")
	case a.Duration < 0:
		fe.Add("duration", nil, "duration must be positive: the clock never moves backwards")
	case a.Duration > 0:
		a.To = now.Add(a.Duration)
	case a.To.IsZero():
		fe.Add("duration", nil, "duration (such as \"6m\") or to (an instant) is required")
	case a.To.Before(now):
		fe.Add("to", nil, "to is before the clock's reading %s: the clock never moves backwards", now.Format(time.RFC3339Nano))
	}
	if len(fe) == 0 && a.To.After(SandboxClockLimit) {
		field := "to"
		if a.Duration > 0 {
			field = "duration"
		}
		fe.Add(field, nil, "%s would move the clock past %s, the latest instant records can carry with room for the work they schedule",
			field, SandboxClockLimit.Format(time.RFC3339))
	}
	if err := engine.Invalid(fe.Err()); err != nil {
		return time.Time{}, err
	}
	if err := s.RunDue(ctx); err != nil {
		return time.Time{}, err
	}
	due, err := duesnap.Take(ctx, s.e, a.To)
	if err != nil {
		return time.Time{}, err
	}
	for at := now; ; {
		next, ok, err := due.Next(ctx, at)
		if err != nil {
			return time.Time{}, err
		}
		if !ok || next.After(a.To) {
			break
		}
		moveTo(next)
		if err := s.RunDue(ctx); err != nil {
			return time.Time{}, err
		}
		at = next
	}
	moveTo(a.To)
	return a.To, s.RunDue(ctx)
}

// RunDue applies all work due on the engine clock and delivers the
// webhooks due, round after round until nothing more moves.
func (s Sandbox) RunDue(ctx context.Context) (err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "RunDue")
	defer op.End(&err)
	for range maxDuePasses {
		n, err := s.e.ProcessDue(ctx)
		if err != nil {
			return err
		}
		m, err := engine.NewWebhooks(s.e).Flush(ctx)
		if err != nil {
			return err
		}
		if n+m == 0 {
			return nil
		}
	}
	return nil
}

// tableSandboxClock keeps the state of the sandbox's test clock
// (SaveClock) under clockKey. No area registers it, so the state export,
// import and reset leave it alone: the clock keeps its reading through
// them, and through restarts.
const (
	tableSandboxClock = "sandbox_clock"
	clockKey          = "clock"
)

// SandboxClock is the state of a sandbox's test clock as it is kept in the
// store (SaveClock), so that a restart resumes where the clock stood
// (package sandbox's Controls save and restore it).
type SandboxClock struct {
	// Now is the reading: after a restart the clock never reads earlier.
	Now time.Time `json:"now"`
	// Frozen reports whether the clock stands still at Now.
	Frozen bool `json:"frozen"`
	// RealTime is the real time (the machine's wall clock) at which a
	// running clock read Now: it reads Now plus the real time elapsed
	// since. Zero for a frozen clock. A reading and a real time, not the
	// lead between them, so that a clock advanced thousands of years still
	// runs (a time.Duration holds about 292 years).
	RealTime time.Time `json:"realTime,omitzero"`
	// Lead is how far a running clock read ahead of real time, as states
	// saved before RealTime keep it: read only when RealTime is zero.
	Lead time.Duration `json:"lead,omitempty"`
}

// SaveClock keeps c as the state of the sandbox's test clock. A later
// reading saved already is kept (with several processes on one store,
// each with its clock, a restart resumes from the latest of them).
func (s Sandbox) SaveClock(ctx context.Context, c SandboxClock) (err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "SaveClock")
	defer op.End(&err)
	if err := s.e.RequireSandbox(); err != nil {
		return err
	}
	return s.e.Update(ctx, func(t *engine.Txn) error {
		var saved SandboxClock
		err := engine.GetJSON(t.Tx, tableSandboxClock, clockKey, &saved)
		if err != nil && !errors.Is(err, engine.ErrNotFound) {
			return err
		}
		if saved.Now.After(c.Now) {
			// A later reading saved by another process: a running clock
			// resumes from it, at the real time it was read.
			c.Now = saved.Now
			if !saved.RealTime.IsZero() {
				c.RealTime = saved.RealTime
			}
		}
		c.RealTime = c.RealTime.UTC()
		c.Now = c.Now.UTC()
		return engine.PutJSON(t, tableSandboxClock, clockKey, c)
	})
}

// SavedClock returns the state SaveClock kept, and false when none was.
func (s Sandbox) SavedClock(ctx context.Context) (_ SandboxClock, _ bool, err error) {
	ctx, op := s.e.Begin(ctx, "sandbox", "SavedClock")
	defer op.End(&err)
	if err := s.e.RequireSandbox(); err != nil {
		return SandboxClock{}, false, err
	}
	var c SandboxClock
	err = s.e.Store.View(ctx, func(tx engine.Tx) error { return engine.GetJSON(tx, tableSandboxClock, clockKey, &c) })
	if errors.Is(err, engine.ErrNotFound) {
		return SandboxClock{}, false, nil
	}
	return c, err == nil, err
}

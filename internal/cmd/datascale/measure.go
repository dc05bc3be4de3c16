package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/internal/engine"
)

// results are one store's figures; a zero time or a negative count is
// "not measured".
type results struct {
	payments      int       // held when its size was measured
	bytes         int64     // on disk, -1 for none
	rates         []float64 // payments/s, one a round
	lists         []listResult
	passTime      time.Duration
	passReads     int64
	passDelivered int
}

// listResult is the p99 of one list case; ok is false when the store did
// not hold that page.
type listResult struct {
	name string
	p99  time.Duration
	ok   bool
}

// subject is a store being measured: open, filled, with an engine on it
// while its lists and payments/s are measured.
type subject struct {
	spec storeSpec
	st   payments.Store
	eng  *payments.Engine
	ps   []payer
	r    *results
}

// prepare fills the store of spec up to n payments, measures its size and
// its lists, and leaves an engine on it for the payments/s rounds.
func prepare(ctx context.Context, o options, spec storeSpec, n int, log io.Writer) (_ *subject, err error) {
	st, err := spec.open(ctx)
	if err != nil {
		return nil, err
	}
	s := &subject{spec: spec, st: st, r: &results{bytes: -1}}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.close(ctx))
		}
	}()
	eng, err := serverEngine(st, o.history)
	if err != nil {
		return s, err
	}
	// Counted once the engine has laid out the store's tables: PostgreSQL
	// answers the index from the transactions' rows.
	have, err := countPayments(ctx, st)
	if err != nil {
		return s, errors.Join(err, eng.Close())
	}
	s.ps, err = payers(ctx, eng, o.customers)
	if err == nil {
		fmt.Fprintf(log, "  holds %d payments\n", have)
		var made int
		made, err = fill(ctx, eng, s.ps, have, n, o.callers, log)
		have += made
	}
	if err = errors.Join(err, eng.Close()); err != nil {
		return s, err
	}

	// Bytes on disk, of what the fill left.
	s.r.payments = have
	var ok bool
	var stats io.Writer
	if o.boltStats {
		stats = log
	}
	if s.st, s.r.bytes, ok, err = spec.size(ctx, s.st, stats, have); err != nil {
		return s, err
	} else if !ok {
		s.r.bytes = -1
	}

	if s.eng, err = serverEngine(s.st, o.history); err != nil {
		return s, err
	}
	s.r.lists, err = measureLists(ctx, s.eng, s.ps[0].customer, o.requests)
	return s, err
}

// finish closes the engine the payments/s rounds ran on, measures the
// webhook pass, and closes the store.
func (s *subject) finish(ctx context.Context, o options) (err error) {
	err = s.eng.Close()
	s.eng = nil
	if err == nil && o.events > 0 {
		if err = measurePass(ctx, s.st, o.events, s.r); err != nil {
			err = fmt.Errorf("webhook pass: %w", err)
		}
	}
	return errors.Join(err, s.close(ctx))
}

// close closes what is open of s, and drops a store that is not kept.
func (s *subject) close(ctx context.Context) error {
	var err error
	if s.eng != nil {
		err = s.eng.Close()
		s.eng = nil
	}
	if s.st != nil {
		err = errors.Join(err, s.st.Close(), s.spec.cleanup(context.WithoutCancel(ctx)))
		s.st = nil
	}
	return err
}

// listCases are the GET /transactions queries measured; the sparse status
// is measured on its first page only.
func listCases(customer string) []struct{ name, query string } {
	return []struct{ name, query string }{
		{"all", ""},
		{"by customer", "customerId=" + url.QueryEscape(customer)},
		{"by status COMPLETED", "status=COMPLETED"},
		{"by status FAILED (1%)", "status=FAILED"},
	}
}

// measureLists measures GET /transactions?limit=20 through httpapi, each
// case's first page and hundredth, requests sequential requests each.
func measureLists(ctx context.Context, eng *payments.Engine, customer string, requests int) ([]listResult, error) {
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "datascale", Permissions: []payments.Permission{payments.PermView}})
	if err != nil {
		return nil, err
	}
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: "/v1"}))
	defer srv.Close()
	client := &http.Client{}
	defer client.CloseIdleConnections()
	id, secret, _ := strings.Cut(tok.Credential(), ":")
	get := func(query string) (next string, n int, err error) {
		req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+"/v1/transactions?limit=20&"+query, nil)
		if err != nil {
			return "", 0, err
		}
		req.SetBasicAuth(id, secret)
		res, err := client.Do(req)
		if err != nil {
			return "", 0, err
		}
		defer res.Body.Close()
		var page struct {
			Data       []json.RawMessage
			NextCursor string
		}
		if err := json.NewDecoder(res.Body).Decode(&page); err != nil || res.StatusCode != http.StatusOK {
			return "", 0, fmt.Errorf("GET /transactions?%s: status %d: %v", query, res.StatusCode, err)
		}
		return page.NextCursor, len(page.Data), nil
	}
	p99 := func(query string) (time.Duration, error) {
		times := make([]time.Duration, requests)
		for i := range times {
			began := time.Now()
			if _, _, err := get(query); err != nil {
				return 0, err
			}
			times[i] = time.Since(began)
		}
		slices.Sort(times)
		return times[(len(times)*99+99)/100-1], nil
	}
	var out []listResult
	for _, c := range listCases(customer) {
		d, err := p99(c.query)
		if err != nil {
			return nil, err
		}
		out = append(out, listResult{name: c.name + ", first page", p99: d, ok: true})
		if strings.Contains(c.name, "FAILED") {
			continue
		}
		// The hundredth page: its cursor is where the 99th ends.
		r := listResult{name: c.name + ", 100th page"}
		q, cursor := c.query, ""
		for page := 1; page < 100; page++ {
			next, _, err := get(q)
			if err != nil {
				return nil, err
			}
			if cursor = next; cursor == "" {
				break
			}
			q = strings.TrimPrefix(c.query+"&cursor="+url.QueryEscape(cursor), "&")
		}
		if cursor != "" {
			if _, n, err := get(q); err != nil {
				return nil, err
			} else if n == 20 {
				if r.p99, err = p99(q); err != nil {
					return nil, err
				}
				r.ok = true
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// measureRate runs quote create+execute with callers callers, caller i
// paying from payer i's account, for d, and returns payments per second.
func measureRate(ctx context.Context, eng *payments.Engine, ps []payer, callers int, d time.Duration) (float64, error) {
	var done atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, callers)
	began := time.Now()
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; time.Since(began) < d; i += len(ps) {
				// i%len(ps) stays c%len(ps), and i%100 == 99 one time in a hundred.
				if errs[c] = pay(ctx, eng, ps, i); errs[c] != nil {
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	return float64(done.Load()) / time.Since(began).Seconds(), errors.Join(errs...)
}

// passEvent is the type of the events the webhook pass finds waiting: one
// the engine emits for every payment.
const passEvent = "OUTGOING_PAYMENT.COMPLETED"

// measurePass measures one delivery pass over st with events events
// waiting in backoff and none due, as after an endpoint went down: an
// engine whose clock (and ids) run two minutes behind emits them (so that they are
// older than the minute a pass on a store shared by processes reads
// again, for the others' writes still running), then its passes on the
// true clock try each once, the Notifier refusing, which puts it in
// backoff for an hour. Then the pass is measured: its Notifier still
// refuses, so a pass that found one due would leave it waiting.
// Afterwards the clock moves ahead and the events are delivered until
// none is left.
func measurePass(ctx context.Context, st payments.Store, events int, r *results) error {
	var ahead atomic.Int64 // the clock's lead, in nanoseconds
	var accept atomic.Bool
	counted, c := countingStore(st)
	eng, err := payments.New(payments.Config{Store: counted, Now: func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) },
		Notifier: payments.NotifierFunc(func(context.Context, payments.Event) error {
			if accept.Load() {
				return nil
			}
			return errors.New("datascale: the endpoint is down")
		}),
		// Event ids are time-ordered (version 7) at the engine's clock.
		NewUUID: func() (uuid.UUID, error) {
			u, err := uuid.NewV7()
			ms := uint64(time.Now().Add(time.Duration(ahead.Load())).UnixMilli())
			for i := range 6 {
				u[i] = byte(ms >> (40 - 8*i))
			}
			return u, err
		},
		Retry: payments.RetryPolicy{Initial: time.Hour}})
	if err != nil {
		return err
	}
	defer eng.Close()
	// A payment's event data, as the engine emits it.
	data := []byte(`{"id":"Transaction:0"}`)
	if page, err := eng.Transactions.List(ctx, payments.TransactionFilter{Type: payments.TxOutgoing}, payments.ListParams{Limit: 1}); err == nil && len(page.Data) > 0 {
		if data, err = json.Marshal(page.Data[0]); err != nil {
			return err
		}
	}
	h := engine.HandleOf(eng.Webhooks)
	ahead.Store(int64(-2 * time.Minute))
	for start := 0; start < events; start += 1000 {
		err := h.Update(ctx, func(t *engine.Txn) error {
			for range min(1000, events-start) {
				if err := t.EmitEncoded(passEvent, data); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	ahead.Store(0)
	// Every event tried once, and refused: passes until one reads next to
	// nothing (a pass tries at most 256).
	for i := 0; ; i++ {
		c.reads.Store(0)
		if _, err := eng.Webhooks.Flush(countReads(ctx)); err != nil {
			return err
		}
		if c.reads.Load() < 10 {
			break
		}
		if i > events {
			return errors.New("datascale: the events are still due after a pass each")
		}
	}
	// The best of three passes: the engine's own worker may run one at
	// the same time.
	for range 3 {
		c.reads.Store(0)
		began := time.Now()
		n, err := eng.Webhooks.Flush(countReads(ctx))
		took := time.Since(began)
		if err != nil {
			return err
		}
		if r.passTime == 0 || took < r.passTime {
			r.passTime, r.passReads, r.passDelivered = took, c.reads.Load(), n
		}
	}
	ahead.Store(int64(3 * time.Hour))
	accept.Store(true)
	for {
		n, err := eng.Webhooks.Flush(ctx)
		if err != nil || n == 0 {
			return err
		}
	}
}

// printTable prints the results, base beside full.
func printTable(out io.Writer, o options, base, full *results) {
	type row struct{ metric, b, f, ratio string }
	ratio := func(b, f float64) string {
		if b <= 0 || f <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.2fx", f/b)
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
	var rows []row
	rows = append(rows, row{"payments in the store", thousands(float64(base.payments)), thousands(float64(full.payments)), ratio(float64(base.payments), float64(full.payments))})
	// The rate's ratio is the median of the rounds' ratios (each round
	// measures the base store, then the full one).
	rounds := make([]float64, len(base.rates))
	var each []string
	for i := range rounds {
		rounds[i] = full.rates[i] / base.rates[i]
		each = append(each, fmt.Sprintf("%.2fx", rounds[i]))
	}
	rows = append(rows, row{fmt.Sprintf("payments/s (quote+execute, %d callers, median of %d rounds of %s)", o.rateCallers, len(rounds), o.rateFor),
		thousands(median(base.rates)), thousands(median(full.rates)), fmt.Sprintf("%.2fx", median(rounds))})
	if len(rounds) > 1 {
		rows = append(rows, row{"payments/s, each round's ratio", "", "", strings.Join(each, " ")})
	}
	for i, b := range base.lists {
		f := full.lists[i]
		bs, fs := "-", "-"
		if b.ok {
			bs = ms(b.p99)
		}
		if f.ok {
			fs = ms(f.p99)
		}
		rat := "-"
		if b.ok && f.ok {
			rat = ratio(float64(b.p99), float64(f.p99))
		}
		rows = append(rows, row{"GET /transactions?limit=20 p99, " + b.name, bs, fs, rat})
	}
	if o.events > 0 {
		rows = append(rows, row{fmt.Sprintf("webhook pass, %s events waiting, none due: time", thousands(float64(o.events))), ms(base.passTime), ms(full.passTime),
			ratio(float64(base.passTime), float64(full.passTime))})
		rows = append(rows, row{"webhook pass: store reads", thousands(float64(base.passReads)), thousands(float64(full.passReads)),
			ratio(float64(base.passReads), float64(full.passReads))})
	}
	if base.bytes >= 0 && full.bytes >= 0 {
		rows = append(rows, row{"bytes on disk", thousands(float64(base.bytes)), thousands(float64(full.bytes)), ratio(float64(base.bytes), float64(full.bytes))})
		per := func(r *results) float64 {
			if r.payments == 0 {
				return 0
			}
			return float64(r.bytes) / float64(r.payments)
		}
		bp, fp := per(base), per(full)
		bs := "-"
		if bp > 0 {
			bs = thousands(bp)
		}
		rows = append(rows, row{"bytes on disk per payment", bs, thousands(fp), ratio(bp, fp)})
	}
	w := [3]int{len("metric"), len("base"), len("full")}
	for _, r := range rows {
		w[0], w[1], w[2] = max(w[0], len(r.metric)), max(w[1], len(r.b)), max(w[2], len(r.f))
	}
	fmt.Fprintf(out, "%-*s  %*s  %*s  %s\n", w[0], "metric", w[1], "base", w[2], "full", "full/base")
	for _, r := range rows {
		fmt.Fprintf(out, "%-*s  %*s  %*s  %s\n", w[0], r.metric, w[1], r.b, w[2], r.f, r.ratio)
	}
}

// thousands formats v rounded to a whole number with thousands separators.
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// median is the median of vs (the mean of the middle two of an even
// count); vs is not changed.
func median(vs []float64) float64 {
	s := slices.Sorted(slices.Values(vs))
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

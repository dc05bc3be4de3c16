package crashtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/boltstore"
)

// checkLedger opens the database the killed child left and runs
// payments.CheckLedger on it (the child must be dead: bbolt locks the file).
func (h *harness) checkLedger(when string) {
	h.t.Helper()
	store, err := boltstore.Open(h.db, nil)
	if err != nil {
		h.t.Fatalf("%s: open the database: %v", when, err)
	}
	defer store.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := payments.CheckLedger(ctx, store); err != nil {
		h.failf("%s: the ledger check failed: %v", when, err)
	}
}

// checkBalances compares every worker's available balance with what its
// committed answers imply: exactly funded - spent, or within the range
// left by calls whose outcome is unknown.
func (h *harness) checkBalances(when string) {
	h.t.Helper()
	for _, w := range h.workers {
		var page struct {
			Data []struct {
				ID      string `json:"id"`
				Balance struct {
					Amount int64 `json:"amount"`
				} `json:"balance"`
			} `json:"data"`
		}
		if err := h.api.getJSON("/customers/internal-accounts?currency=USD&customerId="+w.customerID, &page); err != nil {
			h.failf("%s: worker %d: %v", when, w.n, err)
			continue
		}
		if len(page.Data) != 1 || page.Data[0].ID != w.account {
			h.failf("%s: worker %d: want the one USD account %s, got %+v", when, w.n, w.account, page.Data)
			continue
		}
		got := page.Data[0].Balance.Amount
		switch lo, hi := w.low(), w.high(); {
		case lo == hi && got != lo:
			h.failf("%s: worker %d: account %s holds %d; the journal's committed answers say %d (funded %d - spent %d): money moved %s",
				when, w.n, w.account, got, lo, w.funded, w.spent, direction(got, lo))
		case got < lo || got > hi:
			h.failf("%s: worker %d: account %s holds %d; the journal allows %d..%d (funded %d - spent %d, unknown outcomes: funding %d, spending %d): money moved %s",
				when, w.n, w.account, got, lo, hi, w.funded, w.spent, w.unknownFund, w.unknownSpend, direction(got, lo))
		case lo != hi && when == atTheEnd:
			h.t.Logf("worker %d: the calls whose outcome is unknown moved %+d on account %s: %s",
				w.n, got-(w.funded-w.spent), w.account, describe(w.unknown))
		}
	}
}

// atTheEnd names the last balance check.
const atTheEnd = "at the end"

// describe lists calls whose outcome is unknown with the money each could move.
func describe(calls []*call) string {
	var parts []string
	for _, c := range calls {
		switch c.Kind {
		case opFund:
			parts = append(parts, fmt.Sprintf("%s %q +%d", c.Kind, c.Key, c.Amount))
		case opExecute, opQuoteNow, opTransferOut:
			parts = append(parts, fmt.Sprintf("%s %q -%d", c.Kind, c.Key, c.Amount))
		default:
			parts = append(parts, fmt.Sprintf("%s %q", c.Kind, c.Key))
		}
	}
	return strings.Join(parts, ", ")
}

// direction explains a balance off its expectation.
func direction(got, want int64) string {
	if got < want {
		return "twice or was taken without an answer (a spend ran twice, or ran when its answer said otherwise)"
	}
	return "less than acknowledged (an acknowledged spend is missing, or a funding ran twice)"
}

// finalChecks run once the last restart is done: every answered call
// replays, every acknowledged write is there once, and balances hold.
func (h *harness) finalChecks() {
	h.t.Helper()
	h.replayAnswered(0, -1)
	h.checkCustomers()
	h.checkResources()
	h.checkBalances(atTheEnd)
}

// checkCustomers lists every customer and matches them with the journal by
// email (unique per idempotency key): a created customer exists exactly once
// with the id its answer gave; one whose outcome is unknown at most once.
func (h *harness) checkCustomers() {
	h.t.Helper()
	byEmail := map[string][]string{}
	cursor := ""
	for {
		var page struct {
			Data []struct {
				ID    string `json:"id"`
				Email string `json:"email"`
			} `json:"data"`
			HasMore    bool   `json:"hasMore"`
			NextCursor string `json:"nextCursor"`
		}
		path := "/customers?limit=100&isIncludingDeleted=true"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		if err := h.api.getJSON(path, &page); err != nil {
			h.failf("listing customers: %v", err)
			return
		}
		for _, c := range page.Data {
			byEmail[c.Email] = append(byEmail[c.Email], c.ID)
		}
		if !page.HasMore {
			break
		}
		cursor = page.NextCursor
	}
	for _, c := range h.journal.calls {
		if c.Kind != opCustomer {
			continue
		}
		email := c.Key + "@crash.example"
		ids := byEmail[email]
		switch {
		case c.Answer == nil && len(ids) > 1:
			h.failf("%s (outcome unknown: %s) created %d customers: %v", c, c.Unknown, len(ids), ids)
		case c.Answer == nil:
		case c.Answer.Status != c.Want && len(ids) > 0:
			h.failf("%s answered %s but created customers %v", c, c.Answer, ids)
		case c.Answer.Status == c.Want:
			var got struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(c.Answer.Body, &got)
			if len(ids) != 1 || ids[0] != got.ID {
				h.failf("%s answered customer %s; the store holds %d customers for its key: %v (want exactly that one)", c, got.ID, len(ids), ids)
			}
		}
	}
}

// checkResources reads back every quote and transaction an answered call
// created: an acknowledged write must not be lost, and an executed quote
// must no longer be pending.
func (h *harness) checkResources() {
	h.t.Helper()
	type read struct {
		c      *call
		path   string
		moving bool // an executed quote: PENDING or EXPIRED would mean the execution was lost
	}
	var reads []read
	for _, c := range h.journal.calls {
		if c.Answer == nil || c.Answer.Status != c.Want {
			continue
		}
		var got struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(c.Answer.Body, &got)
		switch c.Kind {
		case opQuote:
			reads = append(reads, read{c: c, path: "/quotes/" + got.ID})
		case opQuoteNow, opExecute:
			reads = append(reads, read{c: c, path: "/quotes/" + got.ID, moving: true})
		case opTransferOut:
			reads = append(reads, read{c: c, path: "/transactions/" + got.ID})
		case opCustomer:
			reads = append(reads, read{c: c, path: "/customers/" + got.ID})
		}
	}
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, r := range reads {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var got struct {
				ID     string `json:"id"`
				Status string `json:"status"`
			}
			if err := h.api.getJSON(r.path, &got); err != nil {
				h.failf("the write of %s, acknowledged in round %d, is lost: %v", r.c, r.c.Round, err)
				return
			}
			if r.moving && (got.Status == "PENDING" || got.Status == "EXPIRED") {
				h.failf("%s was acknowledged as executed in round %d, but the quote is %s", r.c, r.c.Round, got.Status)
			}
		})
	}
	wg.Wait()
}

// decode reads a call's answer into v or stops the test.
func decode(t *testing.T, c *call, v any) {
	t.Helper()
	if err := json.Unmarshal(c.Answer.Body, v); err != nil {
		t.Fatalf("%s: %v in %s", c, err, clip(c.Answer.Body))
	}
}

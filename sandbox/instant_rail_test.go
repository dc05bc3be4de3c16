package sandbox_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
)

// payoutStory is what a client sees of one payout to an external account:
// the execution's answer, the transaction right after it and after every
// delay has passed, the source balance then, the payment's events in order,
// and what the payment left to hand over.
type payoutStory struct {
	answer, after, settled string
	transfer               string // a transfer out's answer
	balance                int64
	events                 []string
	pending                int
}

// payout pays 10,000 cents from a funded customer to a USD bank account
// ending in suffix on a sandbox engine with rail, then transfers 1,000
// cents out to it, and tells their story.
func payout(t *testing.T, store func(*payments.Config), rail payments.Rail, suffix string) payoutStory {
	t.Helper()
	ctx := context.Background()
	var mu sync.Mutex
	var events []string
	eng, clock, err := sandbox.New(func(c *payments.Config) {
		store(c)
		c.Rail = rail
		c.Notifier = payments.NotifierFunc(func(_ context.Context, ev payments.Event) error {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, string(ev.Type))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	c, err := eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
		Currencies: []string{"USD"}, Profile: customers.Profile{FullName: "Jane Doe"},
		AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms,
			TermsVersion: payments.CurrentEndUserTerms.Version, AcceptedAt: clock.Now(), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}}})
	if err != nil {
		t.Fatal(err)
	}
	page, err := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	if err != nil {
		t.Fatal(err)
	}
	usd := page.Data[0].ID
	if _, err := eng.Sandbox.Fund(ctx, usd, 50_000); err != nil {
		t.Fatal(err)
	}
	ext, err := eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID, Currency: "USD",
		AccountInfo: []byte(`{"accountType":"USD_ACCOUNT","accountNumber":"123456` + suffix + `","routingNumber":"021000021",
			"beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Jane Doe"}}`)}, payments.CustomerScope)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Webhooks.Flush(ctx); err != nil { // the setup's events
		t.Fatal(err)
	}
	mu.Lock()
	events = nil
	mu.Unlock()

	req := payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: usd},
		Destination: payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: ext.ID}, LockedCurrencySide: "SENDING",
		LockedCurrencyAmount: 10_000, ImmediatelyExecute: true}
	keyed := func() *payments.Engine { // a handle is one request
		h, err := eng.WithIdempotency(payments.Idempotency{Scope: "POST /quotes", Key: "payout-" + suffix})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	q, err := keyed().Quotes.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// A retry replays the answer and moves nothing.
	if again, err := keyed().Quotes.Create(ctx, req); err != nil || again.Status != q.Status || again.TransactionID != q.TransactionID {
		t.Fatalf("retry answered %+v, %v; want the first answer (%s, %s)", again, err, q.Status, q.TransactionID)
	}
	var s payoutStory
	s.answer = string(q.Status)
	out, err := eng.Transactions.TransferOut(ctx, payments.TransferOutRequest{SourceAccountID: usd, DestinationAccountID: ext.ID, Amount: 1_000})
	if err != nil {
		t.Fatal(err)
	}
	s.transfer = string(out.Status)
	tx, err := eng.Transactions.Get(ctx, q.TransactionID)
	if err != nil {
		t.Fatal(err)
	}
	s.after = string(tx.Status)
	pending, err := eng.Rails.Pending(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	s.pending = len(pending)
	for range 3 {
		clock.Advance(5 * time.Minute)
		if _, err := eng.ProcessDue(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if tx, err = eng.Transactions.Get(ctx, q.TransactionID); err != nil {
		t.Fatal(err)
	}
	s.settled = string(tx.Status)
	if tx.Refund != nil {
		s.settled += " refund " + string(tx.Refund.Status)
	}
	a, err := eng.Accounts.Internal(ctx, usd)
	if err != nil {
		t.Fatal(err)
	}
	s.balance = a.Balance.Amount
	if _, err := eng.Webhooks.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	s.events = slices.Clone(events)
	mu.Unlock()
	return s
}

// TestInstantRail_SameAsHandOver: for every payout suffix, the instant
// rail (outcomes applied in the executing transaction) and the sandbox
// rail (outcomes reported through the hand-over after commit) answer,
// settle, refund, notify and leave balances alike; the instant one leaves
// nothing to hand over.
func TestInstantRail_SameAsHandOver(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		for _, sfx := range []string{"000", "002", "003", "004", "005", "006", "007"} {
			t.Run(name+"/"+sfx, func(t *testing.T) { sameAsHandOver(t, store, sfx) })
		}
	}
}

// sameAsHandOver compares the two rails' stories of a payout to suffix on
// store.
func sameAsHandOver(t *testing.T, store func(*payments.Config), sfx string) {
	handed := payout(t, store, sandbox.Rail{}, sfx)
	instant := payout(t, store, sandbox.InstantRail{}, sfx)
	if instant.pending != 0 {
		t.Errorf("instant rail left %d payments to hand over", instant.pending)
	}
	handed.pending = 0
	if fmt.Sprint(instant) != fmt.Sprint(handed) {
		t.Errorf("instant rail: %+v\nhand-over:    %+v", instant, handed)
	}
	if instant.answer != "PROCESSING" || instant.transfer != "PROCESSING" {
		t.Errorf("execution answered %s, transfer out %s, want PROCESSING (the payment as sent)", instant.answer, instant.transfer)
	}
	if len(instant.events) < 3 {
		t.Errorf("events %v, want at least PENDING, PROCESSING and an outcome", instant.events)
	}
}

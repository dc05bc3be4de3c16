package rails_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/sandbox"
)

// bankRail is a rail adapter around a bank's HTTP API: Send submits the
// payment, keyed by its ID so that the bank drops a repeat, and the bank's
// settlement webhook reports the outcome through Engine.Rails.Report.
type bankRail struct {
	sandbox.Rail // CheckAccount: this example keeps the sandbox's checks
	api          string
}

func (b bankRail) Name() string { return "examplebank" }

func (b bankRail) Send(ctx context.Context, p payments.OutgoingPayment, _ payments.Reporter) error {
	body, _ := json.Marshal(map[string]any{"idempotencyKey": p.ID, "amount": p.Amount, "currency": p.Currency,
		"account": p.Destination.Identifier()})
	req, err := http.NewRequestWithContext(ctx, "POST", b.api+"/payments", bytes.NewReader(body))
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err // the engine retries with backoff
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		return fmt.Errorf("bank answered %s", res.Status)
	}
	return nil
}

// fakeBank accepts payments and settles them when told to, calling the
// platform's webhook.
type fakeBank struct {
	mu       sync.Mutex
	accepted []string
}

func (f *fakeBank) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var p struct{ IdempotencyKey string }
	_ = json.NewDecoder(r.Body).Decode(&p)
	f.mu.Lock()
	f.accepted = append(f.accepted, p.IdempotencyKey)
	f.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
}

// Example embeds a custom rail adapter in a program: the engine hands the
// payout to the bank after its transaction commits, and the bank's
// settlement webhook, handled by the program, reports the outcome.
func Example() {
	ctx := context.Background()
	bank := &fakeBank{}
	api := httptest.NewServer(bank)
	defer api.Close()

	eng, clock, err := sandbox.New(func(c *payments.Config) { c.Rail = bankRail{api: api.URL} })
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	// The program's webhook endpoint for the bank's settlement notices.
	webhook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n struct{ PaymentID, NoticeID, Status string }
		_ = json.NewDecoder(r.Body).Decode(&n)
		err := eng.Rails.Report(r.Context(), payments.RailReport{PaymentID: n.PaymentID, Reference: n.NoticeID,
			Outcome: payments.RailOutcome(n.Status)})
		if err != nil {
			http.Error(w, "not applied", http.StatusInternalServerError) // the bank redelivers
		}
	}))
	defer webhook.Close()

	c, _ := eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
		Currencies: []string{"USD"}, Profile: customers.Profile{FullName: "Jane Doe"},
		AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms,
			TermsVersion: payments.CurrentEndUserTerms.Version, AcceptedAt: clock.Now(), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}}})
	page, _ := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	usd := page.Data[0].ID
	_, _ = eng.Sandbox.Fund(ctx, usd, 50_000)
	ext, _ := eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID, Currency: "USD",
		AccountInfo: []byte(`{"accountType":"USD_ACCOUNT","accountNumber":"123456000","routingNumber":"021000021",
			"beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Jane Doe"}}`)}, payments.CustomerScope)
	q, err := eng.Quotes.Create(ctx, payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: usd},
		Destination: payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: ext.ID}, LockedCurrencySide: "SENDING",
		LockedCurrencyAmount: 10_000, ImmediatelyExecute: true})
	if err != nil {
		panic(err)
	}
	tx, _ := eng.Transactions.Get(ctx, q.TransactionID)
	fmt.Println("executed:", tx.Status, "- the bank holds", len(bank.accepted), "payment")

	// Later the bank settles it and notifies the program (twice: webhooks
	// are redelivered; the second notice changes nothing).
	notice, _ := json.Marshal(map[string]string{"paymentId": bank.accepted[0], "noticeId": "N-1", "status": "COMPLETED"})
	for range 2 {
		res, err := http.Post(webhook.URL, "application/json", bytes.NewReader(notice))
		if err != nil {
			panic(err)
		}
		res.Body.Close()
	}
	tx, _ = eng.Transactions.Get(ctx, q.TransactionID)
	a, _ := eng.Accounts.Internal(ctx, usd)
	fmt.Println("settled:", tx.Status, "balance", a.Balance.Amount)
	// Output:
	// executed: PROCESSING - the bank holds 1 payment
	// settled: COMPLETED balance 40000
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/webhooks"
)

// serverEngine starts an engine on st configured as the sandbox server
// configures its own (examples/server): the sandbox providers, the instant
// rail, the webhook sender (no endpoint is set, so events go to the event
// history when history is set, else nowhere).
func serverEngine(st payments.Store, history bool) (*payments.Engine, error) {
	key, err := webhooks.GenerateKey()
	if err != nil {
		return nil, err
	}
	sender, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: true})
	if err != nil {
		return nil, err
	}
	return payments.New(payments.Config{Store: st, NewUUID: sandbox.NewUUID, Sandbox: true, Notifier: sender,
		KYC: sandbox.KYC{}, Rail: sandbox.InstantRail{}, Rates: sandbox.Rates{}, Directory: sandbox.Directory{},
		SkipCheckDigits: true, EventHistory: history, Platform: payments.PlatformSeed{Currencies: sandbox.PlatformCurrencies()}})
}

// payer is one paying customer: its funded USD account, and its US bank
// accounts the sandbox rail completes (ok) and fails (fail) payments to.
type payer struct {
	customer, account, ok, fail string
}

// payers finds the customers datascale-0..n-1 of an earlier run, and
// makes the missing ones (each verified, its account funded with
// payments.MaxSandboxFunding).
func payers(ctx context.Context, eng *payments.Engine, n int) ([]payer, error) {
	out := make([]payer, n)
	for i := range out {
		ref := fmt.Sprintf("datascale-%d", i)
		page, err := eng.Customers.List(ctx, payments.CustomerFilter{PlatformCustomerID: ref}, payments.ListParams{})
		if err != nil {
			return nil, err
		}
		p := &out[i]
		if len(page.Data) > 0 {
			p.customer = page.Data[0].ID
		} else {
			c, err := eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerIndividual, PlatformCustomerID: ref,
				Identifier: "123-45-6789", Currencies: []string{"USD"},
				AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms, TermsVersion: payments.CurrentEndUserTerms.Version,
					AcceptedAt: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}},
				Profile: payments.CustomerProfile{FullName: fmt.Sprintf("Payer Number%d", i), BirthDate: "1990-01-15", Nationality: "US", IDType: "SSN",
					Address: &payments.Address{Line1: "1 Main St", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"}}})
			if err != nil {
				return nil, err
			}
			p.customer = c.ID
		}
		accts, err := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: p.customer, Currency: "USD"}, payments.CustomerScope, payments.ListParams{})
		if err != nil {
			return nil, err
		}
		if len(accts.Data) == 0 {
			return nil, fmt.Errorf("customer %s has no USD account", p.customer)
		}
		p.account = accts.Data[0].ID
		ext, err := eng.Accounts.ListExternal(ctx, payments.ExternalAccountFilter{CustomerID: p.customer}, payments.CustomerScope, payments.ListParams{})
		if err != nil {
			return nil, err
		}
		if len(ext.Data) == 2 {
			p.ok, p.fail = ext.Data[0].ID, ext.Data[1].ID
			continue
		}
		if _, err := eng.Sandbox.Fund(ctx, p.account, payments.MaxSandboxFunding); err != nil {
			return nil, err
		}
		// The sandbox rail decides by the account number's last digits:
		// 789 completes, 002 fails (and the money comes back).
		for _, a := range []struct {
			suffix string
			id     *string
		}{{"789", &p.ok}, {"002", &p.fail}} {
			info, _ := json.Marshal(map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "12345" + a.suffix, "routingNumber": "021000021",
				"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jane Doe"}})
			x, err := eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: p.customer, Currency: "USD", AccountInfo: info}, payments.CustomerScope)
			if err != nil {
				return nil, err
			}
			*a.id = x.ID
		}
	}
	return out, nil
}

// pay makes the i-th payment: $0.01 from payer i%len(ps) to its bank
// account, executed at once; every hundredth fails at the rail.
func pay(ctx context.Context, eng *payments.Engine, ps []payer, i int) error {
	p := ps[i%len(ps)]
	to := p.ok
	if i%100 == 99 {
		to = p.fail
	}
	_, err := eng.Quotes.Create(ctx, payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: p.account},
		Destination:        payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: to},
		LockedCurrencySide: "SENDING", LockedCurrencyAmount: 1, ImmediatelyExecute: true})
	return err
}

// fill makes payments from have up to target with callers concurrent
// callers, reporting progress on log every 10 seconds, and returns how
// many it made.
func fill(ctx context.Context, eng *payments.Engine, ps []payer, have, target, callers int, log io.Writer) (int, error) {
	if have >= target {
		return 0, nil
	}
	var next, done atomic.Int64
	next.Store(int64(have))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var once sync.Once
	var failed error
	began := time.Now()
	stop := make(chan struct{})
	go func() {
		tick := time.NewTicker(10 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				d := done.Load()
				fmt.Fprintf(log, "  filled %d of %d (%.0f payments/s)\n", int64(have)+d, target, float64(d)/time.Since(began).Seconds())
			}
		}
	}()
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(target) || ctx.Err() != nil {
					return
				}
				if err := pay(ctx, eng, ps, int(i)); err != nil {
					once.Do(func() { failed = fmt.Errorf("payment %d: %w", i, err); cancel() })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	close(stop)
	d := int(done.Load())
	fmt.Fprintf(log, "  filled %d payments in %s (%.0f payments/s)\n", d, time.Since(began).Round(time.Millisecond), float64(d)/time.Since(began).Seconds())
	return d, failed
}

package payments_test

import (
	"context"
	"fmt"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
)

// Example_embedSandbox embeds a sandbox engine with a Notifier (the
// README's embedding snippet): it funds a customer's internal account,
// pays out to the customer's US bank account with a quote executed at
// once, reads the transaction and handles the webhooks the payout sent.
// Config.Sandbox turns on the sandbox operations (funding); the sandbox
// package's KYC provider, rail and rates stand in for the real ones.
// sandbox.New assembles the same engine in one call. To POST signed
// webhooks to an endpoint instead, pass a webhooks.Sender as the Notifier
// and set the endpoint (PlatformSeed.WebhookEndpoint, or
// Platform.UpdateConfig).
func Example_embedSandbox() {
	ctx := context.Background()
	events := make(chan payments.Event, 64)
	eng, err := payments.New(payments.Config{
		Store:   memstore.New(), // or boltstore.Open("payments.db", nil), pgstore.Open(ctx, dsn, nil)
		Sandbox: true,           // the sandbox operations: funding, simulated payments
		KYC:     sandbox.KYC{}, Rail: sandbox.Rail{}, Rates: sandbox.Rates{},
		Notifier: payments.NotifierFunc(func(ctx context.Context, ev payments.Event) error {
			events <- ev // called after the change committed, at least once per event
			return nil
		}),
	})
	if err != nil {
		panic(err)
	}
	defer eng.Close()

	c, err := eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
		Currencies: []string{"USD"}, Profile: payments.CustomerProfile{FullName: "Jane Doe"},
		AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms,
			TermsVersion: payments.CurrentEndUserTerms.Version, AcceptedAt: time.Now(), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}}})
	if err != nil {
		panic(err)
	}
	page, _ := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	usd := page.Data[0].ID
	if _, err := eng.Sandbox.Fund(ctx, usd, 50_000); err != nil { // $500.00
		panic(err)
	}
	ext, err := eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID, Currency: "USD",
		AccountInfo: payments.USBankAccount{AccountNumber: "1234567890", RoutingNumber: "021000021",
			Beneficiary: &payments.Beneficiary{Type: payments.BeneficiaryIndividual, FullName: "Jane Doe"}}.AccountInfo()},
		payments.CustomerScope)
	if err != nil {
		panic(err)
	}
	q, err := eng.Quotes.Create(ctx, payments.QuoteRequest{
		Source:             payments.QuoteSource{SourceType: payments.SourceAccount, AccountID: usd},
		Destination:        payments.QuoteDestination{DestinationType: payments.DestinationAccount, AccountID: ext.ID},
		LockedCurrencySide: payments.LockedSending, LockedCurrencyAmount: 10_000, // $100.00
		ImmediatelyExecute: true,
	})
	if err != nil {
		panic(err)
	}
	tx, _ := eng.Transactions.Get(ctx, q.TransactionID)
	a, _ := eng.Accounts.Internal(ctx, usd)
	fmt.Println("transaction:", tx.Type, tx.Status, tx.PaymentRail, "balance:", a.Balance.Amount)

	// Deliver what is due now (the engine's worker does it within a
	// second anyway), then read the webhooks.
	if _, err := eng.Webhooks.Flush(ctx); err != nil {
		panic(err)
	}
	for len(events) > 0 {
		ev := <-events
		switch ev.Type {
		case payments.EventOutgoingPaymentPending, payments.EventOutgoingPaymentProcessing, payments.EventOutgoingPaymentCompleted:
			tx, _ := payments.TransactionOf(ev)
			fmt.Println("webhook:", ev.Type, tx.SentAmount.Amount)
		case payments.EventInternalAccountBalanceUpdated:
			acct, _ := payments.InternalAccountOf(ev)
			fmt.Println("webhook:", ev.Type, acct.Balance.Amount)
		}
	}
	// Output:
	// transaction: OUTGOING COMPLETED ACH balance: 40000
	// webhook: INTERNAL_ACCOUNT.BALANCE_UPDATED 50000
	// webhook: INTERNAL_ACCOUNT.BALANCE_UPDATED 40000
	// webhook: OUTGOING_PAYMENT.PENDING 10000
	// webhook: OUTGOING_PAYMENT.PROCESSING 10000
	// webhook: OUTGOING_PAYMENT.COMPLETED 10000
}

package sandbox_test

import (
	"context"
	"fmt"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
)

// Example pays an external account from a funded customer on the
// ready-made sandbox engine; a ...003 account settles six minutes later on
// the sandbox clock.
func Example() {
	ctx := context.Background()
	eng, clock, err := sandbox.New()
	if err != nil {
		panic(err)
	}
	defer eng.Close()

	c, _ := eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
		Currencies: []string{"USD"}, Profile: payments.CustomerProfile{FullName: "Jane Doe"},
		AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms,
			TermsVersion: payments.CurrentEndUserTerms.Version, AcceptedAt: clock.Now(), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}}})
	page, _ := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	usd := page.Data[0].ID
	_, _ = eng.Sandbox.Fund(ctx, usd, 50_000)
	ext, err := eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID, Currency: "USD",
		AccountInfo: []byte(`{"accountType":"USD_ACCOUNT","accountNumber":"123456003","routingNumber":"021000021",
			"beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Jane Doe"}}`)}, payments.CustomerScope)
	if err != nil {
		panic(err)
	}
	q, err := eng.Quotes.Create(ctx, payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: usd},
		Destination: payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: ext.ID}, LockedCurrencySide: "SENDING",
		LockedCurrencyAmount: 10_000, ImmediatelyExecute: true})
	if err != nil {
		panic(err)
	}
	tx, _ := eng.Transactions.Get(ctx, q.TransactionID)
	fmt.Println("after execution:", tx.Status)

	clock.Advance(6 * time.Minute)
	_, _ = eng.ProcessDue(ctx)
	tx, _ = eng.Transactions.Get(ctx, q.TransactionID)
	a, _ := eng.Accounts.Internal(ctx, usd)
	fmt.Println("six minutes later:", tx.Status, "balance", a.Balance.Amount)
	// Output:
	// after execution: PROCESSING
	// six minutes later: COMPLETED balance 40000
}

package enginetest

import (
	"encoding/json"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/agents"
	"github.com/stretchr/testify/require"
)

// Transfer is a quote request moving amount (in the source's minor units,
// locked on the sending side) from the account from to the account to,
// executed at once when execute is set. Either may be internal or external.
func Transfer(from, to string, amount int64, execute bool) payments.QuoteRequest {
	return payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: from},
		Destination:        payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: to},
		LockedCurrencySide: "SENDING", LockedCurrencyAmount: amount, ImmediatelyExecute: execute}
}

// ExternalUSD creates a US bank account of "Jane Doe" ending in suffix for
// customer (the sandbox rail decides by the suffix) and returns its id.
func (e *Env) ExternalUSD(t testing.TB, customer, suffix string) string {
	t.Helper()
	info, _ := json.Marshal(map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "12345" + suffix, "routingNumber": "021000021",
		"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jane Doe"}})
	a, err := e.Eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: customer, Currency: "USD", AccountInfo: info}, payments.CustomerScope)
	require.NoError(t, err)
	return a.ID
}

// Available returns the available balance of the internal account.
func (e *Env) Available(t testing.TB, account string) int64 {
	t.Helper()
	v, err := e.Eng.Accounts.Internal(ctx, account)
	require.NoError(t, err)
	return v.Balance.Amount
}

// TxStatus returns the status of the transaction id.
func (e *Env) TxStatus(t testing.TB, id string) payments.TransactionStatus {
	t.Helper()
	tx, err := e.Eng.Transactions.Get(ctx, id)
	require.NoError(t, err)
	return tx.Status
}

// AutoPolicy is an agent policy that creates and executes quotes and
// transfers and views transactions without approval, up to perTx and,
// when daily is not nil, *daily a day (in USD cents).
func AutoPolicy(perTx int64, daily *int64) agents.Policy {
	return agents.Policy{Permissions: []agents.Permission{agents.CreateQuotes, agents.ExecuteQuotes, agents.CreateTransfers, agents.ViewTransactions},
		DefaultExecutionMode: agents.Auto, SpendingLimits: agents.SpendingLimits{Currency: "USD", PerTransactionLimit: perTx, DailyLimit: daily}}
}

package quotes_test

import (
	"testing"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/quotes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func balances(legs [][]accounts.Posting) map[string]int64 {
	out := map[string]int64{}
	for _, leg := range legs {
		for _, p := range leg {
			out[p.Account+" "+p.Currency] += p.Amount
		}
	}
	for k, v := range out {
		if v == 0 {
			delete(out, k)
		}
	}
	return out
}

func TestSettlementLegs(t *testing.T) {
	fx := quotes.Settlement{Hold: "acct/held", Destination: "external:rail", PlatformFees: "platform", ServiceFees: "svc", FX: "fx",
		SendingCurrency: "USD", ReceivingCurrency: "MXN", Total: 100000, FeesIncluded: 800, PlatformFee: 500, ServiceFee: 300, Received: 1711225}
	legs := fx.CompletionLegs()
	for _, leg := range legs {
		require.NoError(t, accounts.CheckBalanced(leg))
	}
	assert.Equal(t, map[string]int64{"acct/held USD": -100000, "platform USD": 500, "svc USD": 300,
		"fx USD": 99200, "fx MXN": -1711225, "external:rail MXN": 1711225}, balances(legs))

	// A return pays the sender's account back in full and leaves every
	// other account as it was before completion.
	back := append(legs, fx.ReturnLegs("acct")...)
	assert.Equal(t, map[string]int64{"acct/held USD": -100000, "acct USD": 100000}, balances(back))

	same := quotes.Settlement{Hold: "h", Destination: "d", ServiceFees: "svc", FX: "fx", SendingCurrency: "USD", ReceivingCurrency: "USD",
		Total: 1000, FeesIncluded: 10, ServiceFee: 10, Received: 990}
	assert.Equal(t, map[string]int64{"h USD": -1000, "svc USD": 10, "d USD": 990}, balances(same.CompletionLegs()),
		"one currency and no spread: no FX legs")
	assert.Len(t, same.CompletionLegs(), 2)
}

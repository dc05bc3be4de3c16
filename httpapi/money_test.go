package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// funded creates a customer with a USD internal account holding amount and
// returns the customer and account ids.
func (s *server) funded(amount int64, mutate ...func(map[string]any)) (string, string) {
	s.t.Helper()
	id := s.customer(append([]func(map[string]any){set("currencies", []string{"USD", "EUR"})}, mutate...)...)
	list := s.do("GET", "/customers/internal-accounts?customerId="+id+"&currency=USD", nil)
	acct := list.Body["data"].([]any)[0].(map[string]any)["id"].(string)
	if amount > 0 {
		require.Equal(s.t, 200, s.do("POST", "/sandbox/internal-accounts/"+acct+"/fund", map[string]any{"amount": amount}).Status)
	}
	return id, acct
}

func (s *server) eurAccount(customerID, iban string) string {
	s.t.Helper()
	r := s.do("POST", "/customers/external-accounts", map[string]any{"customerId": customerID, "currency": "EUR", "accountInfo": map[string]any{
		"accountType": "EUR_ACCOUNT", "iban": iban, "beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jo", "countryOfResidence": "DE"}}})
	require.Equal(s.t, 201, r.Status, "%s", r.Raw)
	return r.Body["id"].(string)
}

func (s *server) usdBalance(acct string) (float64, float64) {
	s.t.Helper()
	for _, path := range []string{"/customers/internal-accounts?currency=USD", "/platform/internal-accounts?currency=USD"} {
		for _, a := range s.do("GET", path+"&limit=100", nil).Body["data"].([]any) {
			m := a.(map[string]any)
			if m["id"] == acct {
				return m["balance"].(map[string]any)["amount"].(float64), m["totalBalance"].(map[string]any)["amount"].(float64)
			}
		}
	}
	s.t.Fatalf("account %s not found", acct)
	return 0, 0
}

// deIBAN returns a valid German IBAN whose account number ends in suffix.
func deIBAN(suffix string) string {
	bban := "370400440532013" + suffix
	rem := 0
	for _, c := range bban + "131400" { // "DE00" moved to the end, letters as numbers
		rem = (rem*10 + int(c-'0')) % 97
	}
	return fmt.Sprintf("DE%02d%s", 98-rem, bban)
}

func quoteBody(source, dest string, amount int64) map[string]any {
	return map[string]any{"source": map[string]any{"sourceType": "ACCOUNT", "accountId": source},
		"destination": map[string]any{"destinationType": "ACCOUNT", "accountId": dest}, "lockedCurrencySide": "SENDING", "lockedCurrencyAmount": amount}
}

// outgoingEvents returns the OUTGOING_PAYMENT.* event types delivered for tx.
func (s *server) eventsOf(txID string) []string {
	s.t.Helper()
	_, err := s.eng.Webhooks.Flush(ctx)
	require.NoError(s.t, err)
	var out []string
	for _, ev := range s.events() {
		if (len(ev.Type) > 9 && ev.Type[:9] == "OUTGOING_" || len(ev.Type) > 9 && ev.Type[:9] == "INCOMING_") && contains(string(ev.Data), txID) {
			out = append(out, string(ev.Type))
		}
	}
	return out
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestQuotes_HappyPathUSDToEUR(t *testing.T) {
	s := moneyServer(t)
	id, acct := s.funded(100000)
	dest := s.eurAccount(id, "DE89370400440532013000")
	q := s.do("POST", "/quotes", quoteBody(acct, dest, 100000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	assert.Equal(t, "PENDING", q.Body["status"])
	assert.EqualValues(t, 92000, q.Body["totalReceivingAmount"])
	assert.Nil(t, q.Body["paymentInstructions"], "no instructions for an internal-account source")
	got := s.do("GET", "/quotes/"+q.Body["id"].(string), nil)
	assert.Equal(t, string(q.Raw), string(got.Raw))

	x := s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil)
	require.Equal(t, 200, x.Status, "%s", x.Raw)
	assert.Equal(t, "PROCESSING", x.Body["status"], "answered as committed, before the rail reports")
	assert.Equal(t, "COMPLETED", s.do("GET", "/quotes/"+q.Body["id"].(string), nil).Body["status"], "the sandbox rail reported at once")
	requireError(t, s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil), 409, payments.CodeConflict)
	bal, total := s.usdBalance(acct)
	assert.Zero(t, bal)
	assert.Zero(t, total)
	txID := q.Body["transactionId"].(string)
	tx := s.do("GET", "/transactions/"+txID, nil)
	require.Equal(t, 200, tx.Status, "%s", tx.Raw)
	assert.Equal(t, "COMPLETED", tx.Body["status"])
	assert.Equal(t, []string{"OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"}, s.eventsOf(txID))
	assert.EqualValues(t, 2, s.do("GET", "/transactions?customerId="+id+"&status=COMPLETED", nil).Body["totalCount"], "the funding's deposit and the payment")
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}

func TestQuotes_Errors(t *testing.T) {
	s := moneyServer(t)
	id, acct := s.funded(1000)
	dest := s.eurAccount(id, "DE89370400440532013000")

	viewer := s.token(payments.PermView)
	requireError(t, s.doAs(viewer, "POST", "/quotes", quoteBody(acct, dest, 100)), 403, payments.CodeForbidden)
	requireError(t, s.do("POST", "/quotes", map[string]any{"lockedCurrencySide": "BOTH", "lockedCurrencyAmount": 0, "description": string(make([]byte, 1025))}),
		400, payments.CodeInvalidInput, "source.sourceType", "destination.destinationType", "lockedCurrencySide", "lockedCurrencyAmount", "description")
	big := quoteBody(acct, dest, 100)
	big["lockedCurrencyAmount"], big["remittanceInformation"], big["scaFactor"] = int64(9000000000000001), string(make([]byte, 81)), "TOTP"
	requireError(t, s.do("POST", "/quotes", big), 400, payments.CodeInvalidInput, "lockedCurrencyAmount", "remittanceInformation", "scaFactor")
	requireError(t, s.do("POST", "/quotes", quoteBody(acct, acct, 100)), 400, payments.CodeSelfPayment)
	requireError(t, s.do("POST", "/quotes", quoteBody(acct, dest, 1_000_000_000_00)), 400, payments.CodeTransactionSizeLimitExceeded)
	requireError(t, s.do("POST", "/quotes", quoteBody("InternalAccount:nope", dest, 100)), 404, payments.CodeAccountNotFound)

	over := quoteBody(acct, dest, 5000)
	q := s.do("POST", "/quotes", over)
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	requireError(t, s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil), 400, payments.CodeInsufficientFunds)
	bal, total := s.usdBalance(acct)
	assert.Equal(t, 1000.0, bal, "a refused execution changes nothing")
	assert.Equal(t, 1000.0, total)
	assert.Equal(t, "PENDING", s.do("GET", "/quotes/"+q.Body["id"].(string), nil).Body["status"])

	t.Run("QUOTE_EXPIRED", func(t *testing.T) {
		q := s.do("POST", "/quotes", quoteBody(acct, dest, 100))
		s.clock.Advance(6 * 60e9)
		requireError(t, s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil), 400, payments.CodeQuoteExpired)
		assert.Equal(t, "EXPIRED", s.do("GET", "/quotes/"+q.Body["id"].(string), nil).Body["status"])
		assert.Equal(t, "EXPIRED", s.do("GET", "/transactions/"+q.Body["transactionId"].(string), nil).Body["status"])
	})
	t.Run("platformFeeOverride", func(t *testing.T) {
		o := quoteBody(acct, dest, 1000)
		o["platformFeeOverride"] = map[string]any{"platformFixedFee": map[string]any{"amount": 50, "currency": "USD"}, "platformVariableFeeBps": 100}
		r := s.do("POST", "/quotes", o)
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		assert.EqualValues(t, 50+10, r.Body["platformFeesIncluded"], "50 fixed + 1% of 950")
		o["platformFeeOverride"] = map[string]any{"platformFixedFee": map[string]any{"amount": 50, "currency": "EUR"}, "platformVariableFeeBps": 100}
		requireError(t, s.do("POST", "/quotes", o), 400, payments.CodeInvalidInput, "platformFeeOverride.platformFixedFee.currency")
	})
	t.Run("END_USER_TERMS_NOT_ACCEPTED", func(t *testing.T) {
		noTerms := s.customer(func(b map[string]any) { delete(b, "agreementConsents") })
		body := quoteBody("", dest, 100)
		body["source"] = map[string]any{"sourceType": "REALTIME_FUNDING", "customerId": noTerms, "currency": "USD"}
		requireError(t, s.do("POST", "/quotes", body), 403, payments.CodeEndUserTermsNotAccepted)
	})
	t.Run("destination rules", func(t *testing.T) {
		micro := s.do("POST", "/customers/external-accounts", usdAccount(id, "123456"+sandbox.MicroEntrySuffix))
		require.Equal(t, 201, micro.Status)
		requireError(t, s.do("POST", "/quotes", quoteBody(acct, micro.Body["id"].(string), 100)), 409, payments.CodeBankAccountValidationPending)
		s.clock.Advance(sandbox.MicroEntryPeriod)
		assert.Equal(t, 201, s.do("POST", "/quotes", quoteBody(acct, micro.Body["id"].(string), 100)).Status)
	})
}

func TestQuotes_SandboxSuffixes(t *testing.T) {
	cases := []struct {
		iban    string // DE IBANs ending in the suffix
		events  []string
		status  string
		advance bool
	}{
		{deIBAN("002"), []string{"PENDING", "PROCESSING", "FAILED", "REFUND_PENDING", "REFUND_COMPLETED"}, "FAILED", false},
		{deIBAN("003"), []string{"PENDING", "PROCESSING", "COMPLETED"}, "COMPLETED", true},
		{deIBAN("004"), []string{"PENDING", "PROCESSING", "FAILED", "REFUND_PENDING", "REFUND_COMPLETED"}, "FAILED", false},
		{deIBAN("005"), []string{"PENDING", "PROCESSING", "COMPLETED", "FAILED", "REFUND_PENDING", "REFUND_COMPLETED"}, "FAILED", true},
		{deIBAN("006"), []string{"PENDING", "PROCESSING", "FAILED", "REFUND_PENDING", "REFUND_COMPLETED"}, "FAILED", false},
		{deIBAN("007"), []string{"PENDING", "PROCESSING", "FAILED", "REFUND_PENDING", "REFUND_FAILED"}, "FAILED", false},
	}
	for _, tc := range cases {
		t.Run(tc.iban[len(tc.iban)-3:], func(t *testing.T) {
			s := moneyServer(t)
			id, acct := s.funded(10000)
			q := s.do("POST", "/quotes", map[string]any{"source": map[string]any{"sourceType": "ACCOUNT", "accountId": acct},
				"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": s.eurAccount(id, tc.iban)},
				"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 10000, "immediatelyExecute": true})
			require.Equal(t, 201, q.Status, "%s", q.Raw)
			if tc.advance {
				s.clock.Advance(sandbox.ReturnAfter)
				_, err := s.eng.ProcessDue(ctx)
				require.NoError(t, err)
			}
			txID := q.Body["transactionId"].(string)
			assert.Equal(t, tc.status, s.do("GET", "/transactions/"+txID, nil).Body["status"])
			var want []string
			for _, e := range tc.events {
				want = append(want, "OUTGOING_PAYMENT."+e)
			}
			assert.Equal(t, want, s.eventsOf(txID))
			bal, total := s.usdBalance(acct)
			switch {
			case tc.status == "COMPLETED":
				assert.Zero(t, total)
			case tc.events[len(tc.events)-1] == "REFUND_FAILED":
				assert.Equal(t, 0.0, bal)
				assert.Equal(t, 10000.0, total, "a failed refund stays held")
			default:
				assert.Equal(t, 10000.0, bal, "refunded")
			}
			require.NoError(t, payments.CheckLedger(ctx, s.store))
		})
	}
	t.Run("cancel a slow payment", func(t *testing.T) {
		s := moneyServer(t)
		id, acct := s.funded(10000)
		q := s.do("POST", "/quotes", quoteBody(acct, s.eurAccount(id, deIBAN("003")), 10000))
		x := s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil)
		assert.Equal(t, "PROCESSING", x.Body["status"])
		txID := q.Body["transactionId"].(string)
		c := s.do("POST", "/transactions/"+txID+"/cancel", nil)
		require.Equal(t, 200, c.Status, "%s", c.Raw)
		assert.Equal(t, "USER_CANCELLATION", c.Body["refund"].(map[string]any)["reason"])
		requireError(t, s.do("POST", "/transactions/"+txID+"/cancel", nil), 409, payments.CodeTransactionNotCancellable)
		bal, _ := s.usdBalance(acct)
		assert.Equal(t, 10000.0, bal)
		requireError(t, s.do("POST", "/transactions/"+txID+"/approve", nil), 409, payments.CodeTransactionNotPendingPlatformApproval)
		require.Equal(t, 200, s.do("POST", "/transactions/"+txID+"/confirm", nil).Status)
	})
	t.Run("a slow payment past its completion time is not cancellable", func(t *testing.T) {
		s := moneyServer(t)
		id, acct := s.funded(10000)
		q := s.do("POST", "/quotes", quoteBody(acct, s.eurAccount(id, deIBAN("003")), 10000))
		require.Equal(t, 200, s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil).Status)
		txID := q.Body["transactionId"].(string)
		s.clock.Advance(sandbox.SlowPayment) // whether or not the worker ran since
		requireError(t, s.do("POST", "/transactions/"+txID+"/cancel", nil), 409, payments.CodeTransactionNotCancellable)
		assert.Equal(t, "COMPLETED", s.do("GET", "/transactions/"+txID, nil).Body["status"])
		_, total := s.usdBalance(acct)
		assert.Zero(t, total, "the payment completed and was not refunded")
		require.NoError(t, payments.CheckLedger(ctx, s.store))
	})
}

func TestQuotes_UMAAndRealTimeFunding(t *testing.T) {
	s := moneyServer(t)
	id, acct := s.funded(50000)
	l := s.do("GET", "/receiver/uma/"+sandbox.UMASuccessEUR, nil)
	body := map[string]any{"lookupId": l.Body["lookupId"], "source": map[string]any{"sourceType": "ACCOUNT", "accountId": acct},
		"destination":        map[string]any{"destinationType": "UMA_ADDRESS", "umaAddress": sandbox.UMASuccessEUR, "currency": "EUR"},
		"lockedCurrencySide": "RECEIVING", "lockedCurrencyAmount": 1000}
	requireError(t, s.do("POST", "/quotes", body), 400, payments.CodeInvalidInput, "senderCustomerInfo.FULL_NAME")
	body["senderCustomerInfo"] = map[string]any{"FULL_NAME": "Jane Doe"}
	q := s.do("POST", "/quotes", body)
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	assert.EqualValues(t, 1000, q.Body["totalReceivingAmount"])
	assert.EqualValues(t, 1087, q.Body["totalSendingAmount"], "10 EUR at 1.0869565 USD/EUR, rounded up")
	x := s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil)
	assert.Equal(t, "PROCESSING", x.Body["status"])
	assert.Equal(t, "COMPLETED", s.do("GET", "/quotes/"+q.Body["id"].(string), nil).Body["status"])
	noLookup := map[string]any{"source": body["source"], "destination": body["destination"], "lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 100}
	requireError(t, s.do("POST", "/quotes", noLookup), 400, payments.CodeInvalidInput, "lookupId")

	fl := s.do("GET", "/receiver/uma/"+sandbox.UMAFailComplianceUS, nil)
	fq := s.do("POST", "/quotes", map[string]any{"lookupId": fl.Body["lookupId"], "source": body["source"], "senderCustomerInfo": body["senderCustomerInfo"],
		"destination": map[string]any{"destinationType": "UMA_ADDRESS", "umaAddress": sandbox.UMAFailComplianceUS}, "lockedCurrencySide": "SENDING",
		"lockedCurrencyAmount": 500, "immediatelyExecute": true})
	require.Equal(t, 201, fq.Status, "%s", fq.Raw)
	assert.Equal(t, "COMPLIANCE_REJECTED", s.do("GET", "/transactions/"+fq.Body["transactionId"].(string), nil).Body["failureReason"])

	rt := s.do("POST", "/quotes", map[string]any{"source": map[string]any{"sourceType": "REALTIME_FUNDING", "currency": "USD", "customerId": id},
		"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": s.eurAccount(id, "DE89370400440532013000")},
		"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 2000})
	require.Equal(t, 201, rt.Status, "%s", rt.Raw)
	require.NotEmpty(t, rt.Body["paymentInstructions"])
	requireError(t, s.do("POST", "/sandbox/send", map[string]any{"quoteId": rt.Body["id"], "currencyCode": "EUR"}), 400, payments.CodeInvalidInput, "currencyCode")
	sent := s.do("POST", "/sandbox/send", map[string]any{"quoteId": rt.Body["id"], "currencyCode": "USD"})
	require.Equal(t, 200, sent.Status, "%s", sent.Raw)
	assert.Equal(t, "PROCESSING", sent.Body["status"])
	assert.Equal(t, "COMPLETED", s.do("GET", "/transactions/"+sent.Body["id"].(string), nil).Body["status"])
	requireError(t, s.do("POST", "/sandbox/send", map[string]any{"quoteId": rt.Body["id"], "currencyCode": "USD"}), 409, payments.CodeConflict)
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}

func TestIncomingPayments(t *testing.T) {
	s := moneyServer(t)
	id, acct := s.funded(0, set("umaAddress", "$jane@sandbox.uma.money"))
	for _, path := range []string{"/sandbox/receive", "/sandbox/uma/receive"} {
		r := s.do("POST", path, map[string]any{"senderUmaAddress": sandbox.UMASuccessUSD, "receiverUmaAddress": "$jane@sandbox.uma.money",
			"receivingCurrencyCode": "USD", "receivingCurrencyAmount": 2500})
		require.Equal(t, 200, r.Status, "%s", r.Raw)
		assert.Equal(t, "COMPLETED", r.Body["status"])
		assert.Equal(t, []string{"INCOMING_PAYMENT.PENDING", "INCOMING_PAYMENT.COMPLETED"}, s.eventsOf(r.Body["id"].(string)))
	}
	bal, _ := s.usdBalance(acct)
	assert.Equal(t, 5000.0, bal, "deposited to the primary internal account")

	ext := usdAccount(id, "987654321")
	ext["defaultUmaDepositAccount"] = true
	e := s.do("POST", "/customers/external-accounts", ext)
	r := s.do("POST", "/sandbox/uma/receive", map[string]any{"senderUmaAddress": sandbox.UMASuccessUSD, "customerId": id,
		"receivingCurrencyCode": "USD", "receivingCurrencyAmount": 100})
	assert.Equal(t, e.Body["id"], r.Body["destination"].(map[string]any)["accountId"], "the default UMA deposit account receives")
	requireError(t, s.do("POST", "/sandbox/uma/receive", map[string]any{"senderUmaAddress": "$nobody@sandbox.uma.money", "customerId": id,
		"receivingCurrencyCode": "USD", "receivingCurrencyAmount": 100}), 404, payments.CodeUmaNotFound)

	in := s.do("POST", "/transfer-in", map[string]any{"source": map[string]any{"accountId": s.do("POST", "/customers/external-accounts", usdAccount(id, "111222009")).Body["id"]},
		"destination": map[string]any{"accountId": acct}, "amount": 700})
	require.Equal(t, 201, in.Status, "%s", in.Raw)
	assert.Equal(t, "PENDING", in.Body["status"], "answered before the rail reports")
	assert.Equal(t, "FAILED", s.do("GET", "/transactions/"+in.Body["id"].(string), nil).Body["status"])
	assert.Equal(t, []string{"INCOMING_PAYMENT.PENDING", "INCOMING_PAYMENT.COMPLETED", "INCOMING_PAYMENT.FAILED"}, s.eventsOf(in.Body["id"].(string)))
	out := s.do("POST", "/transfer-out", map[string]any{"source": map[string]any{"accountId": acct}, "destination": map[string]any{"accountId": e.Body["id"]}, "amount": 1000})
	require.Equal(t, 201, out.Status, "%s", out.Raw)
	assert.Equal(t, "PROCESSING", out.Body["status"])
	assert.Equal(t, "COMPLETED", s.do("GET", "/transactions/"+out.Body["id"].(string), nil).Body["status"])
	bal, _ = s.usdBalance(acct)
	assert.Equal(t, 4000.0, bal)
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}

// TestSandboxScenarios_UMAAndPulls covers every UMA test address and every
// transfer-in suffix with its states and event sequence.
func TestSandboxScenarios_UMAAndPulls(t *testing.T) {
	for _, tc := range []struct {
		address, currency string
		advance           bool
		events            []string
	}{
		{sandbox.UMASuccessUSD, "USD", false, []string{"PENDING", "PROCESSING", "COMPLETED"}},
		{sandbox.UMASuccessEUR, "EUR", false, []string{"PENDING", "PROCESSING", "COMPLETED"}},
		{sandbox.UMASuccessMXN, "MXN", false, []string{"PENDING", "PROCESSING", "COMPLETED"}},
		{sandbox.UMAPendingLongUSD, "USD", true, []string{"PENDING", "PROCESSING", "COMPLETED"}},
		{sandbox.UMAFailComplianceUS, "USD", false, []string{"PENDING", "PROCESSING", "FAILED", "REFUND_PENDING", "REFUND_COMPLETED"}},
	} {
		t.Run(tc.address, func(t *testing.T) {
			s := moneyServer(t)
			_, acct := s.funded(100000)
			l := s.do("GET", "/receiver/uma/"+tc.address, nil)
			q := s.do("POST", "/quotes", map[string]any{"lookupId": l.Body["lookupId"], "source": map[string]any{"sourceType": "ACCOUNT", "accountId": acct},
				"destination": map[string]any{"destinationType": "UMA_ADDRESS", "umaAddress": tc.address}, "senderCustomerInfo": map[string]any{"FULL_NAME": "Jane"},
				"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 1000, "immediatelyExecute": true})
			require.Equal(t, 201, q.Status, "%s", q.Raw)
			assert.Equal(t, tc.currency, q.Body["receivingCurrency"].(map[string]any)["code"])
			txID := q.Body["transactionId"].(string)
			if tc.advance {
				assert.Equal(t, "PROCESSING", s.do("GET", "/transactions/"+txID, nil).Body["status"])
				s.clock.Advance(sandbox.SlowPayment)
				_, err := s.eng.ProcessDue(ctx)
				require.NoError(t, err)
			}
			var want []string
			for _, e := range tc.events {
				want = append(want, "OUTGOING_PAYMENT."+e)
			}
			assert.Equal(t, want, s.eventsOf(txID))
			require.NoError(t, payments.CheckLedger(ctx, s.store))
		})
	}
	for sfx, want := range map[string][]string{
		"002": {"PENDING", "FAILED"}, "003": {"PENDING", "FAILED"}, "004": {"PENDING", "FAILED"}, "005": {"PENDING", "FAILED"},
		"009": {"PENDING", "COMPLETED", "FAILED"}, "001": {"PENDING", "COMPLETED"},
	} {
		t.Run("transfer-in "+sfx, func(t *testing.T) {
			s := moneyServer(t)
			id, acct := s.funded(0)
			ext := s.do("POST", "/customers/external-accounts", usdAccount(id, "555666"+sfx))
			in := s.do("POST", "/transfer-in", map[string]any{"source": map[string]any{"accountId": ext.Body["id"]}, "destination": map[string]any{"accountId": acct}, "amount": 300})
			require.Equal(t, 201, in.Status, "%s", in.Raw)
			if sfx == "005" { // pending for about 30 s, then fails
				assert.Equal(t, "PENDING", in.Body["status"])
				s.clock.Advance(sandbox.TransferTimeout - 1e9)
				_, err := s.eng.ProcessDue(ctx)
				require.NoError(t, err)
				assert.Equal(t, "PENDING", s.do("GET", "/transactions/"+in.Body["id"].(string), nil).Body["status"])
				s.clock.Advance(1e9)
				_, err = s.eng.ProcessDue(ctx)
				require.NoError(t, err)
				got := s.do("GET", "/transactions/"+in.Body["id"].(string), nil)
				assert.Equal(t, "FAILED", got.Body["status"])
				assert.Equal(t, "COLLECTION_FAILED", got.Body["failureReason"])
			}
			var events []string
			for _, e := range want {
				events = append(events, "INCOMING_PAYMENT."+e)
			}
			assert.Equal(t, events, s.eventsOf(in.Body["id"].(string)))
			bal, _ := s.usdBalance(acct)
			if want[len(want)-1] == "COMPLETED" {
				assert.Equal(t, 300.0, bal)
			} else {
				assert.Zero(t, bal)
			}
			require.NoError(t, payments.CheckLedger(ctx, s.store))
		})
	}
}

// TestQuotes_SCA: an EU customer's real-time funded quote waits for
// authorization; the instructions come with it.
func TestQuotes_SCA(t *testing.T) {
	s := moneyServer(t)
	eu := s.customer(set("region", "DE"), set("currencies", []string{"USD", "EUR"}))
	body := map[string]any{"source": map[string]any{"sourceType": "REALTIME_FUNDING", "currency": "USD", "customerId": eu},
		"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": s.eurAccount(eu, "DE89370400440532013000")},
		"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 2000, "scaFactor": "SMS_OTP"}
	q := s.do("POST", "/quotes", body)
	require.Equal(t, 202, q.Status, "%s", q.Raw)
	assert.Equal(t, "PENDING_AUTHORIZATION", q.Body["status"])
	assert.NotNil(t, q.Body["scaChallenge"])
	assert.Nil(t, q.Body["paymentInstructions"], "withheld until authorized")
	qid := q.Body["id"].(string)
	requireError(t, s.do("POST", "/sandbox/send", map[string]any{"quoteId": qid, "currencyCode": "USD"}), 409, payments.CodeConflict)
	requireError(t, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"}), 409, payments.CodeScaSessionRequired)
	s.scaLogin(eu)
	requireError(t, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "000000"}), 400, payments.CodeInvalidInput, "code")
	a := s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"})
	require.Equal(t, 200, a.Status, "%s", a.Raw)
	assert.Equal(t, "PENDING", a.Body["status"])
	assert.NotEmpty(t, a.Body["paymentInstructions"])
	requireError(t, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"}), 409, payments.CodeConflict)
	txID := q.Body["transactionId"].(string)
	assert.Equal(t, "PENDING", s.do("GET", "/transactions/"+txID, nil).Body["status"], "authorized, waiting for its funds")
	assert.Equal(t, "PROCESSING", s.do("POST", "/sandbox/send", map[string]any{"quoteId": qid, "currencyCode": "USD"}).Body["status"])
	assert.Equal(t, "COMPLETED", s.do("GET", "/transactions/"+txID, nil).Body["status"])
	assert.Equal(t, []string{"OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PENDING_AUTHORIZATION", "OUTGOING_PAYMENT.PROCESSING",
		"OUTGOING_PAYMENT.COMPLETED"}, s.eventsOf(txID))
}

package httpapi_test

import (
	"context"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// holdingKYC is the sandbox provider, except that every verification
// submission puts the customer on HOLD.
type holdingKYC struct{ sandbox.KYC }

func (holdingKYC) Review(context.Context, *payments.KYCSubmission) (payments.KYCDecision, error) {
	return payments.KYCDecision{Status: payments.VerificationPendingManualReview, CustomerStatus: payments.KYCHold}, nil
}

func business(reg string) map[string]any {
	return map[string]any{"customerType": "BUSINESS", "businessInfo": map[string]any{
		"legalName": "Acme", "country": "US", "taxId": "12-3456789", "incorporatedOn": "2001-01-01", "registrationNumber": reg},
		"agreementConsents": individual()["agreementConsents"]}
}

// TestQuotes_SenderNotAccepted: a customer or business whose kycStatus
// (kybStatus) became REJECTED or HOLD after it was funded, added an external
// account, made a quote and got an agent sends nothing: execute,
// immediatelyExecute, a new quote, /transfer-out and the agent's execute
// and transfer-out answer 400 SENDER_NOT_ACCEPTED with the balance
// untouched, while funding, an incoming UMA payment and a payment from
// another customer still credit it.
func TestQuotes_SenderNotAccepted(t *testing.T) {
	cases := []struct {
		name      string
		kyc       payments.KYCProvider
		body      map[string]any
		paperless bool
		member    string // kycStatus or kybStatus
		status    string
	}{
		{"REJECTED", sandbox.KYC{}, individual(set("fullName", "Jane 002")), false, "kycStatus", "REJECTED"},
		{"HOLD", holdingKYC{}, individual(), false, "kycStatus", "HOLD"},
		{"business REJECTED", sandbox.KYC{}, business("REG-002"), true, "kybStatus", "REJECTED"},
		{"business HOLD", holdingKYC{}, business("REG-000"), false, "kybStatus", "HOLD"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(c *payments.Config) {
				c.KYC, c.Rail, c.Rates, c.Directory = tc.kyc, sandbox.Rail{}, sandbox.Rates{}, sandbox.Directory{}
			})
			if tc.paperless {
				require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"skipVerificationPaperwork": true}).Status)
			}
			tc.body["currencies"] = []string{"USD"}
			c := s.do("POST", "/customers", tc.body)
			require.Equal(t, 201, c.Status, "%s", c.Raw)
			id := c.Body["id"].(string)
			acct := s.do("GET", "/customers/internal-accounts?customerId="+id+"&currency=USD", nil).Body["data"].([]any)[0].(map[string]any)["id"].(string)
			require.Equal(t, 200, s.do("POST", "/sandbox/internal-accounts/"+acct+"/fund", map[string]any{"amount": 10_000}).Status)
			x := s.do("POST", "/customers/external-accounts", usdAccount(id, "444555000"))
			require.Equal(t, 201, x.Status, "%s", x.Raw)
			ext := x.Body["id"].(string)
			_, token := s.agent(id, policy(5000, 100_000))
			q := s.do("POST", "/quotes", quoteBody(acct, ext, 100))
			require.Equal(t, 201, q.Status, "%s", q.Raw)
			aq := s.as(token, "POST", "/agents/me/quotes", quoteBody(acct, ext, 100))
			require.Equal(t, 201, aq.Status, "%s", aq.Raw)

			ct, doc := multipartBody(t, map[string]string{"documentHolder": id, "documentType": "PASSPORT", "country": "US"}, png)
			require.Equal(t, 201, s.do("POST", "/documents", doc, "Content-Type", ct).Status)
			v := s.do("POST", "/verifications", map[string]any{"customerId": id})
			require.Equal(t, 200, v.Status, "%s", v.Raw)
			require.Equal(t, tc.status, s.do("GET", "/customers/"+id, nil).Body[tc.member])

			requireError(t, s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil), 400, payments.CodeSenderNotAccepted)
			now := quoteBody(acct, ext, 100)
			now["immediatelyExecute"] = true
			requireError(t, s.do("POST", "/quotes", now), 400, payments.CodeSenderNotAccepted)
			requireError(t, s.do("POST", "/quotes", quoteBody(acct, ext, 100)), 400, payments.CodeSenderNotAccepted)
			requireError(t, s.do("POST", "/transfer-out", map[string]any{"source": map[string]any{"accountId": acct},
				"destination": map[string]any{"accountId": ext}, "amount": 100}), 400, payments.CodeSenderNotAccepted)
			requireError(t, s.as(token, "POST", "/agents/me/quotes/"+aq.Body["id"].(string)+"/execute", nil), 400, payments.CodeSenderNotAccepted)
			requireError(t, s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 100)), 400, payments.CodeSenderNotAccepted)
			bal, total := s.usdBalance(acct)
			assert.EqualValues(t, 10_000, bal)
			assert.EqualValues(t, 10_000, total)

			// Money coming in still credits it.
			require.Equal(t, 200, s.do("POST", "/sandbox/internal-accounts/"+acct+"/fund", map[string]any{"amount": 1000}).Status)
			in := s.do("POST", "/sandbox/uma/receive", map[string]any{"senderUmaAddress": sandbox.UMASuccessUSD, "customerId": id,
				"receivingCurrencyCode": "USD", "receivingCurrencyAmount": 500})
			require.Equal(t, 200, in.Status, "%s", in.Raw)
			_, payer := s.funded(1000)
			pay := quoteBody(payer, acct, 300)
			pay["immediatelyExecute"] = true
			p := s.do("POST", "/quotes", pay)
			require.Equal(t, 201, p.Status, "%s", p.Raw)
			_, err := s.eng.ProcessDue(ctx)
			require.NoError(t, err)
			assert.Equal(t, "COMPLETED", s.do("GET", "/transactions/"+in.Body["id"].(string), nil).Body["status"])
			bal, _ = s.usdBalance(acct)
			assert.EqualValues(t, 10_000+1000+500+300, bal)
		})
	}
}

// TestQuotes_SenderNotAcceptedAtCreation is the case: on a
// regulated platform a customer created REJECTED (sandbox suffix 002), or
// created with kycStatus HOLD, is funded and adds an external account, but
// paying it out is 400 SENDER_NOT_ACCEPTED. Customers created UNVERIFIED
// (003) and PENDING (001) pay as before.
func TestQuotes_SenderNotAcceptedAtCreation(t *testing.T) {
	cases := []struct {
		status string
		mutate func(map[string]any)
		paid   bool
	}{
		{"REJECTED", set("fullName", "Jane 002"), false},
		{"HOLD", set("kycStatus", "HOLD"), false},
		{"UNVERIFIED", set("fullName", "Jane 003"), true},
		{"PENDING", set("fullName", "Jane 001"), true},
	}
	for _, tc := range cases {
		t.Run(tc.status, func(t *testing.T) {
			s := moneyServer(t)
			require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"isRegulatedFinancialInstitution": true}).Status)
			id, acct := s.funded(5000, tc.mutate)
			require.Equal(t, tc.status, s.do("GET", "/customers/"+id, nil).Body["kycStatus"])
			x := s.do("POST", "/customers/external-accounts", usdAccount(id, "444555000"))
			require.Equal(t, 201, x.Status, "%s", x.Raw)
			out := quoteBody(acct, x.Body["id"].(string), 1000)
			out["immediatelyExecute"] = true
			r := s.do("POST", "/quotes", out)
			bal, _ := s.usdBalance(acct)
			if tc.paid {
				require.Equal(t, 201, r.Status, "%s", r.Raw)
				assert.EqualValues(t, 4000, bal)
				return
			}
			requireError(t, r, 400, payments.CodeSenderNotAccepted)
			assert.Equal(t, id, r.Body["details"].(map[string]any)["customerId"])
			assert.EqualValues(t, 5000, bal)
		})
	}
}

package customers_test

import (
	"context"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/agents"
	"github.com/paygrid/payments/internal/enginetest"
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

// sender is a customer set up to send money: a funded USD account, an
// external USD account, an agent with an AUTO policy and one whose actions
// need approval, and what was made while the customer could still send: a
// quote by the platform, one by the agent, and a transfer-out waiting for
// approval.
type sender struct {
	id, acct, ext   string
	agent, approver string
	quote, agentQte string
	pending         string // the approver's action
}

func connectedAgent(t *testing.T, e *enginetest.Env, customerID string, pol agents.Policy) string {
	t.Helper()
	created, err := e.Eng.Agents.Create(ctx, payments.AgentCreateRequest{Name: "bot", CustomerID: customerID, Policy: &pol})
	require.NoError(t, err)
	_, err = e.Eng.Agents.Redeem(ctx, created.DeviceCode.Code)
	require.NoError(t, err)
	return created.Agent.ID
}

func newSender(t *testing.T, e *enginetest.Env, in payments.CustomerInput, funds int64) *sender {
	t.Helper()
	in.Currencies = []string{"USD"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	s := &sender{id: c.ID, acct: page.Data[0].ID}
	_, err = e.Eng.Sandbox.Fund(ctx, s.acct, funds)
	require.NoError(t, err)
	s.ext = e.ExternalUSD(t, c.ID, "000")
	s.agent = connectedAgent(t, e, c.ID, enginetest.AutoPolicy(10_000, nil))
	pol := enginetest.AutoPolicy(10_000, nil)
	pol.DefaultExecutionMode = agents.ApprovalRequired
	s.approver = connectedAgent(t, e, c.ID, pol)
	a, err := e.Eng.Agents.TransferOut(ctx, s.approver, payments.AgentTransfer{SourceAccountID: s.acct, DestinationAccountID: s.ext, Amount: 100})
	require.NoError(t, err)
	require.Equal(t, agents.PendingApproval, a.Status)
	s.pending = a.ID
	q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(s.acct, s.ext, 100, false))
	require.NoError(t, err)
	s.quote = q.ID
	q, err = e.Eng.Agents.CreateQuote(ctx, s.agent, enginetest.Transfer(s.acct, s.ext, 100, false))
	require.NoError(t, err)
	s.agentQte = q.ID
	return s
}

// sends tries every way s's customer sends money and returns each one's
// error code ("" for success).
func sends(t *testing.T, e *enginetest.Env, s *sender) map[string]payments.Code {
	t.Helper()
	out := map[string]payments.Code{}
	_, err := e.Eng.Quotes.Execute(ctx, s.quote)
	out["execute"] = payments.CodeOf(err)
	_, err = e.Eng.Quotes.Create(ctx, enginetest.Transfer(s.acct, s.ext, 100, true))
	out["immediatelyExecute"] = payments.CodeOf(err)
	_, err = e.Eng.Quotes.Create(ctx, enginetest.Transfer(s.acct, s.ext, 100, false))
	out["create"] = payments.CodeOf(err)
	_, err = e.Eng.Transactions.TransferOut(ctx, payments.TransferOutRequest{SourceAccountID: s.acct, DestinationAccountID: s.ext, Amount: 100})
	out["transfer-out"] = payments.CodeOf(err)
	_, err = e.Eng.Agents.ExecuteQuote(ctx, s.agent, s.agentQte)
	out["agent execute"] = payments.CodeOf(err)
	_, err = e.Eng.Agents.TransferOut(ctx, s.agent, payments.AgentTransfer{SourceAccountID: s.acct, DestinationAccountID: s.ext, Amount: 100})
	out["agent transfer-out"] = payments.CodeOf(err)
	_, err = e.Eng.Agents.TransferOut(ctx, s.approver, payments.AgentTransfer{SourceAccountID: s.acct, DestinationAccountID: s.ext, Amount: 100})
	out["agent transfer-out for approval"] = payments.CodeOf(err)
	return out
}

// TestEngine_SendingNeedsAStatusThatMaySend: a customer (or business) whose
// kycStatus (kybStatus) became REJECTED or HOLD sends nothing: executing a
// quote made before, immediatelyExecute, a new quote, transfer-out and an
// agent's execute and transfer-out are SENDER_NOT_ACCEPTED with no money
// moved, while money coming in (sandbox funding, an incoming UMA payment, a
// payment from another customer) still credits it. UNVERIFIED and PENDING
// customers keep sending (these two cases guard against refusing too much).
func TestEngine_SendingNeedsAStatusThatMaySend(t *testing.T) {
	business := func(reg string) payments.CustomerInput {
		in := enginetest.FullBusiness(reg)
		in.AgreementConsents = []payments.AgreementConsent{enginetest.Consent()}
		return in
	}
	cases := []struct {
		name   string
		kind   string
		kyc    payments.KYCProvider
		in     payments.CustomerInput
		status payments.KYCStatus // after the verification submission
		want   payments.Code
	}{
		{"individual REJECTED", enginetest.Unregulated, sandbox.KYC{}, enginetest.FullIndividual("Ann 002"), payments.KYCRejected, payments.CodeSenderNotAccepted},
		{"individual HOLD", enginetest.Unregulated, holdingKYC{}, enginetest.FullIndividual("Ann Smith"), payments.KYCHold, payments.CodeSenderNotAccepted},
		{"business REJECTED", enginetest.Paperless, sandbox.KYC{}, business("REG-002"), payments.KYCRejected, payments.CodeSenderNotAccepted},
		{"business HOLD", enginetest.Unregulated, holdingKYC{}, business("REG-000"), payments.KYCHold, payments.CodeSenderNotAccepted},
		{"individual PENDING", enginetest.Unregulated, sandbox.KYC{}, enginetest.FullIndividual("Ann 001"), payments.KYCPending, ""},
		{"individual UNVERIFIED", enginetest.Unregulated, sandbox.KYC{}, enginetest.FullIndividual("Ann 003"), payments.KYCUnverified, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.KYC = tc.kyc })
			if tc.kind == enginetest.Paperless {
				yes := true
				_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{SkipVerificationPaperwork: &yes})
				require.NoError(t, err)
			}
			s := newSender(t, e, tc.in, 10_000)
			e.Upload(t, s.id, "PASSPORT")
			_, err := e.Eng.Customers.SubmitVerification(ctx, s.id)
			require.NoError(t, err)
			c, err := e.Eng.Customers.Get(ctx, s.id)
			require.NoError(t, err)
			require.Equal(t, tc.status, c.Status())

			before := e.Available(t, s.acct)
			got := sends(t, e, s)
			for op, code := range got {
				assert.Equal(t, tc.want, code, op)
			}
			if tc.want != "" {
				assert.Equal(t, before, e.Available(t, s.acct), "no money left")
				a, err := e.Eng.Agents.Me(ctx, s.agent)
				require.NoError(t, err)
				assert.Zero(t, a.Usage.DailyTransactionCount, "no agent spend counted")
				actions, err := e.Eng.Agents.Actions(ctx, s.agent, "", payments.ListParams{})
				require.NoError(t, err)
				assert.Empty(t, actions.Data, "no agent action recorded")
				actions, err = e.Eng.Agents.Actions(ctx, s.approver, "", payments.ListParams{})
				require.NoError(t, err)
				assert.Len(t, actions.Data, 1, "only the one recorded before")
			}
			// The action approved now runs only if the customer may send.
			a, err := e.Eng.Agents.Approve(ctx, s.approver, s.pending)
			require.NoError(t, err)
			if tc.want != "" {
				assert.Equal(t, agents.Failed, a.Status)
				assert.Equal(t, before, e.Available(t, s.acct), "no money left")
			} else {
				assert.Equal(t, agents.Approved, a.Status)
			}

			// Money coming in still credits the customer.
			before = e.Available(t, s.acct)
			_, err = e.Eng.Sandbox.Fund(ctx, s.acct, 1000)
			require.NoError(t, err)
			tx, err := e.Eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: s.id,
				ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 500})
			require.NoError(t, err)
			_, err = e.Eng.ProcessDue(ctx)
			require.NoError(t, err)
			assert.Equal(t, payments.TxCompleted, e.TxStatus(t, tx.ID))
			payer := e.USDAccount(t, "Pat Payer")
			_, err = e.Eng.Sandbox.Fund(ctx, payer, 1000)
			require.NoError(t, err)
			q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(payer, s.acct, 300, true))
			require.NoError(t, err)
			assert.Equal(t, payments.TxCompleted, e.TxStatus(t, q.TransactionID))
			assert.Equal(t, before+1000+500+300, e.Available(t, s.acct))
			require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
		})
	}
}

// TestEngine_SendingStatusAtCreation: on a enginetest.Regulated platform a customer
// created REJECTED (sandbox suffix 002) or HOLD, or a business created
// with kybStatus HOLD, is funded and adds an external account, but pays
// nothing out.
func TestEngine_SendingStatusAtCreation(t *testing.T) {
	hold := enginetest.FullIndividual("Ann Smith")
	hold.KYCStatus = payments.KYCHold
	biz := enginetest.FullBusiness("REG-000")
	biz.KYBStatus = payments.KYCHold
	for name, in := range map[string]payments.CustomerInput{"REJECTED": enginetest.FullIndividual("Ann 002"), "HOLD": hold, "business HOLD": biz} {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t)
			yes := true
			_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{IsRegulatedFinancialInstitution: &yes})
			require.NoError(t, err)
			in.Currencies = []string{"USD"}
			c, err := e.Eng.Customers.Create(ctx, in)
			require.NoError(t, err)
			require.Contains(t, []payments.KYCStatus{payments.KYCRejected, payments.KYCHold}, c.Status())
			page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
			require.NoError(t, err)
			acct := page.Data[0].ID
			_, err = e.Eng.Sandbox.Fund(ctx, acct, 10_000)
			require.NoError(t, err)
			ext := e.ExternalUSD(t, c.ID, "000")
			_, err = e.Eng.Quotes.Create(ctx, enginetest.Transfer(acct, ext, 1000, true))
			enginetest.RequireCode(t, err, payments.CodeSenderNotAccepted)
			_, err = e.Eng.Transactions.TransferOut(ctx, payments.TransferOutRequest{SourceAccountID: acct, DestinationAccountID: ext, Amount: 1000})
			enginetest.RequireCode(t, err, payments.CodeSenderNotAccepted)
			pol := enginetest.AutoPolicy(10_000, nil)
			pol.Permissions = append(pol.Permissions, agents.ManageExternalAccounts)
			created, err := e.Eng.Agents.Create(ctx, payments.AgentCreateRequest{Name: "bot", CustomerID: c.ID, Policy: &pol})
			require.NoError(t, err)
			_, err = e.Eng.Agents.Redeem(ctx, created.DeviceCode.Code)
			require.NoError(t, err)
			_, err = e.Eng.Agents.TransferOut(ctx, created.Agent.ID, payments.AgentTransfer{SourceAccountID: acct, DestinationAccountID: ext, Amount: 1000})
			enginetest.RequireCode(t, err, payments.CodeSenderNotAccepted)
			_, err = e.Eng.Agents.CreateQuote(ctx, created.Agent.ID, enginetest.Transfer(acct, ext, 1000, false))
			enginetest.RequireCode(t, err, payments.CodeSenderNotAccepted)
			assert.EqualValues(t, 10_000, e.Available(t, acct))
		})
	}
}

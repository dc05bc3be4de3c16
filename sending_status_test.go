package payments_test

import (
	"context"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/agents"
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

func (e *env) connectedAgent(t *testing.T, customerID string, pol agents.Policy) string {
	t.Helper()
	created, err := e.eng.Agents.Create(ctx, payments.AgentCreateRequest{Name: "bot", CustomerID: customerID, Policy: &pol})
	require.NoError(t, err)
	_, err = e.eng.Agents.Redeem(ctx, created.DeviceCode.Code)
	require.NoError(t, err)
	return created.Agent.ID
}

func (e *env) sender(t *testing.T, in payments.CustomerInput, funds int64) *sender {
	t.Helper()
	in.Currencies = []string{"USD"}
	c, err := e.eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	s := &sender{id: c.ID, acct: page.Data[0].ID}
	_, err = e.eng.Sandbox.Fund(ctx, s.acct, funds)
	require.NoError(t, err)
	s.ext = e.externalUSD(t, c.ID, "000")
	s.agent = e.connectedAgent(t, c.ID, autoPolicy(10_000, nil))
	pol := autoPolicy(10_000, nil)
	pol.DefaultExecutionMode = agents.ApprovalRequired
	s.approver = e.connectedAgent(t, c.ID, pol)
	a, err := e.eng.Agents.TransferOut(ctx, s.approver, payments.AgentTransfer{SourceAccountID: s.acct, DestinationAccountID: s.ext, Amount: 100})
	require.NoError(t, err)
	require.Equal(t, agents.PendingApproval, a.Status)
	s.pending = a.ID
	q, err := e.eng.Quotes.Create(ctx, transfer(s.acct, s.ext, 100, false))
	require.NoError(t, err)
	s.quote = q.ID
	q, err = e.eng.Agents.CreateQuote(ctx, s.agent, transfer(s.acct, s.ext, 100, false))
	require.NoError(t, err)
	s.agentQte = q.ID
	return s
}

// sends tries every way s's customer sends money and returns each one's
// error code ("" for success).
func (e *env) sends(t *testing.T, s *sender) map[string]payments.Code {
	t.Helper()
	out := map[string]payments.Code{}
	_, err := e.eng.Quotes.Execute(ctx, s.quote)
	out["execute"] = payments.CodeOf(err)
	_, err = e.eng.Quotes.Create(ctx, transfer(s.acct, s.ext, 100, true))
	out["immediatelyExecute"] = payments.CodeOf(err)
	_, err = e.eng.Quotes.Create(ctx, transfer(s.acct, s.ext, 100, false))
	out["create"] = payments.CodeOf(err)
	_, err = e.eng.Transactions.TransferOut(ctx, payments.TransferOutRequest{SourceAccountID: s.acct, DestinationAccountID: s.ext, Amount: 100})
	out["transfer-out"] = payments.CodeOf(err)
	_, err = e.eng.Agents.ExecuteQuote(ctx, s.agent, s.agentQte)
	out["agent execute"] = payments.CodeOf(err)
	_, err = e.eng.Agents.TransferOut(ctx, s.agent, payments.AgentTransfer{SourceAccountID: s.acct, DestinationAccountID: s.ext, Amount: 100})
	out["agent transfer-out"] = payments.CodeOf(err)
	_, err = e.eng.Agents.TransferOut(ctx, s.approver, payments.AgentTransfer{SourceAccountID: s.acct, DestinationAccountID: s.ext, Amount: 100})
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
		in := fullBusiness(reg)
		in.AgreementConsents = []payments.AgreementConsent{consent()}
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
		{"individual REJECTED", unregulated, sandbox.KYC{}, fullIndividual("Ann 002"), payments.KYCRejected, payments.CodeSenderNotAccepted},
		{"individual HOLD", unregulated, holdingKYC{}, fullIndividual("Ann Smith"), payments.KYCHold, payments.CodeSenderNotAccepted},
		{"business REJECTED", paperless, sandbox.KYC{}, business("REG-002"), payments.KYCRejected, payments.CodeSenderNotAccepted},
		{"business HOLD", unregulated, holdingKYC{}, business("REG-000"), payments.KYCHold, payments.CodeSenderNotAccepted},
		{"individual PENDING", unregulated, sandbox.KYC{}, fullIndividual("Ann 001"), payments.KYCPending, ""},
		{"individual UNVERIFIED", unregulated, sandbox.KYC{}, fullIndividual("Ann 003"), payments.KYCUnverified, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := moneyEnv(t, func(c *payments.Config) { c.KYC = tc.kyc })
			if tc.kind == paperless {
				yes := true
				_, err := e.eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{SkipVerificationPaperwork: &yes})
				require.NoError(t, err)
			}
			s := e.sender(t, tc.in, 10_000)
			e.upload(t, s.id, "PASSPORT")
			_, err := e.eng.Customers.SubmitVerification(ctx, s.id)
			require.NoError(t, err)
			c, err := e.eng.Customers.Get(ctx, s.id)
			require.NoError(t, err)
			require.Equal(t, tc.status, c.Status())

			before := e.available(t, s.acct)
			got := e.sends(t, s)
			for op, code := range got {
				assert.Equal(t, tc.want, code, op)
			}
			if tc.want != "" {
				assert.Equal(t, before, e.available(t, s.acct), "no money left")
				a, err := e.eng.Agents.Me(ctx, s.agent)
				require.NoError(t, err)
				assert.Zero(t, a.Usage.DailyTransactionCount, "no agent spend counted")
				actions, err := e.eng.Agents.Actions(ctx, s.agent, "", payments.ListParams{})
				require.NoError(t, err)
				assert.Empty(t, actions.Data, "no agent action recorded")
				actions, err = e.eng.Agents.Actions(ctx, s.approver, "", payments.ListParams{})
				require.NoError(t, err)
				assert.Len(t, actions.Data, 1, "only the one recorded before")
			}
			// The action approved now runs only if the customer may send.
			a, err := e.eng.Agents.Approve(ctx, s.approver, s.pending)
			require.NoError(t, err)
			if tc.want != "" {
				assert.Equal(t, agents.Failed, a.Status)
				assert.Equal(t, before, e.available(t, s.acct), "no money left")
			} else {
				assert.Equal(t, agents.Approved, a.Status)
			}

			// Money coming in still credits the customer.
			before = e.available(t, s.acct)
			_, err = e.eng.Sandbox.Fund(ctx, s.acct, 1000)
			require.NoError(t, err)
			tx, err := e.eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: s.id,
				ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 500})
			require.NoError(t, err)
			_, err = e.eng.ProcessDue(ctx)
			require.NoError(t, err)
			assert.Equal(t, payments.TxCompleted, e.txStatus(t, tx.ID))
			payer := e.usdAccount(t, "Pat Payer")
			_, err = e.eng.Sandbox.Fund(ctx, payer, 1000)
			require.NoError(t, err)
			q, err := e.eng.Quotes.Create(ctx, transfer(payer, s.acct, 300, true))
			require.NoError(t, err)
			assert.Equal(t, payments.TxCompleted, e.txStatus(t, q.TransactionID))
			assert.Equal(t, before+1000+500+300, e.available(t, s.acct))
			require.NoError(t, payments.CheckLedger(ctx, e.eng.Store()))
		})
	}
}

// TestEngine_SendingStatusAtCreation: on a regulated platform a customer
// created REJECTED (sandbox suffix 002) or HOLD, or a business created
// with kybStatus HOLD, is funded and adds an external account, but pays
// nothing out.
func TestEngine_SendingStatusAtCreation(t *testing.T) {
	hold := fullIndividual("Ann Smith")
	hold.KYCStatus = payments.KYCHold
	biz := fullBusiness("REG-000")
	biz.KYBStatus = payments.KYCHold
	for name, in := range map[string]payments.CustomerInput{"REJECTED": fullIndividual("Ann 002"), "HOLD": hold, "business HOLD": biz} {
		t.Run(name, func(t *testing.T) {
			e := moneyEnv(t)
			yes := true
			_, err := e.eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{IsRegulatedFinancialInstitution: &yes})
			require.NoError(t, err)
			in.Currencies = []string{"USD"}
			c, err := e.eng.Customers.Create(ctx, in)
			require.NoError(t, err)
			require.Contains(t, []payments.KYCStatus{payments.KYCRejected, payments.KYCHold}, c.Status())
			page, err := e.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
			require.NoError(t, err)
			acct := page.Data[0].ID
			_, err = e.eng.Sandbox.Fund(ctx, acct, 10_000)
			require.NoError(t, err)
			ext := e.externalUSD(t, c.ID, "000")
			_, err = e.eng.Quotes.Create(ctx, transfer(acct, ext, 1000, true))
			requireCode(t, err, payments.CodeSenderNotAccepted)
			_, err = e.eng.Transactions.TransferOut(ctx, payments.TransferOutRequest{SourceAccountID: acct, DestinationAccountID: ext, Amount: 1000})
			requireCode(t, err, payments.CodeSenderNotAccepted)
			pol := autoPolicy(10_000, nil)
			pol.Permissions = append(pol.Permissions, agents.ManageExternalAccounts)
			created, err := e.eng.Agents.Create(ctx, payments.AgentCreateRequest{Name: "bot", CustomerID: c.ID, Policy: &pol})
			require.NoError(t, err)
			_, err = e.eng.Agents.Redeem(ctx, created.DeviceCode.Code)
			require.NoError(t, err)
			_, err = e.eng.Agents.TransferOut(ctx, created.Agent.ID, payments.AgentTransfer{SourceAccountID: acct, DestinationAccountID: ext, Amount: 1000})
			requireCode(t, err, payments.CodeSenderNotAccepted)
			_, err = e.eng.Agents.CreateQuote(ctx, created.Agent.ID, transfer(acct, ext, 1000, false))
			requireCode(t, err, payments.CodeSenderNotAccepted)
			assert.EqualValues(t, 10_000, e.available(t, acct))
		})
	}
}

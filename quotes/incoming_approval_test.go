package quotes_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answeringSender is a WebhookSender whose endpoint answers each approval
// request (INCOMING_PAYMENT.PENDING) with the next scripted reply, and every
// other event with 200.
type answeringSender struct {
	mu      sync.Mutex
	replies []reply
	types   []string
	gate    chan struct{} // when set, approval requests wait for it to close
}

type reply struct {
	status int
	err    error
}

func (s *answeringSender) Notify(context.Context, payments.Event) error { return nil }

func (s *answeringSender) Send(_ context.Context, _ string, ev payments.Event) (payments.Delivery, error) {
	if s.gate != nil && ev.Type == "INCOMING_PAYMENT.PENDING" {
		<-s.gate
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.types = append(s.types, string(ev.Type))
	if ev.Type != "INCOMING_PAYMENT.PENDING" || len(s.replies) == 0 {
		return payments.Delivery{Status: 200}, nil
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	if r.err == nil && r.status/100 != 2 && r.status != 409 {
		r.err = errors.New("endpoint answered an error")
	}
	return payments.Delivery{Status: r.status}, r.err
}

// TestEngine_IncomingApprovalWebhookAnswer: the answer to the approval
// webhook decides an incoming payment: 200 credits it, 403
// rejects it, 202 leaves it to the API within the window, 422, 500 and an
// unreachable endpoint fail it, and an answer after an API decision changes
// nothing.
func TestEngine_IncomingApprovalWebhookAnswer(t *testing.T) {
	cases := []struct {
		name    string
		reply   reply
		status  payments.TransactionStatus
		reason  string
		credit  int64
		pending bool
	}{
		{name: "Approve200", reply: reply{status: 200}, status: payments.TxCompleted, credit: 500},
		{name: "Reject403", reply: reply{status: 403}, status: payments.TxRejected},
		{name: "Async202", reply: reply{status: 202}, status: payments.TxPending, pending: true},
		{name: "Duplicate409", reply: reply{status: 409}, status: payments.TxPending, pending: true},
		{name: "NeedsInfo422", reply: reply{status: 422}, status: payments.TxFailed, reason: "PAYMENT_APPROVAL_WEBHOOK_ERROR"},
		{name: "Error500", reply: reply{status: 500}, status: payments.TxFailed, reason: "PAYMENT_APPROVAL_WEBHOOK_ERROR"},
		{name: "Unreachable", reply: reply{err: errors.New("connection refused")}, status: payments.TxFailed, reason: "PAYMENT_APPROVAL_WEBHOOK_ERROR"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sender := &answeringSender{replies: []reply{tc.reply}}
			e := approvalEnv(t, sender)
			c, acct := umaReceiver(t, e)
			tx, err := e.Eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: c,
				ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 500})
			require.NoError(t, err)
			_, err = e.Eng.Webhooks.Flush(ctx)
			require.NoError(t, err)

			got, err := e.Eng.Transactions.Get(ctx, tx.ID)
			require.NoError(t, err)
			assert.Equal(t, tc.status, got.Status)
			assert.Equal(t, tc.reason, got.FailureReason)
			assert.EqualValues(t, tc.credit, balance(t, e, acct))
			_, err = e.Eng.Transactions.Decide(ctx, tx.ID, payments.ApproveIncoming)
			if tc.pending {
				require.NoError(t, err, "a 202 or 409 answer leaves the decision to the API")
				assert.EqualValues(t, 500, balance(t, e, acct))
			} else {
				enginetest.RequireCode(t, err, payments.CodeTransactionNotPendingPlatformApproval)
			}
			_, err = e.Eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
			assert.Contains(t, sender.types, "INCOMING_PAYMENT.PENDING")
			require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
		})
	}

	t.Run("AnswerAfterAPIDecision", func(t *testing.T) {
		sender := &answeringSender{replies: []reply{{status: 403}}, gate: make(chan struct{})}
		e := approvalEnv(t, sender)
		c, acct := umaReceiver(t, e)
		tx, err := e.Eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: c,
			ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 700})
		require.NoError(t, err)
		_, err = e.Eng.Transactions.Decide(ctx, tx.ID, payments.ApproveIncoming)
		require.NoError(t, err)
		close(sender.gate)                 // the 403 arrives after the approval
		_, err = e.Eng.Webhooks.Flush(ctx) // waits for any background pass
		require.NoError(t, err)
		got, err := e.Eng.Transactions.Get(ctx, tx.ID)
		require.NoError(t, err)
		assert.Equal(t, payments.TxCompleted, got.Status)
		assert.EqualValues(t, 700, balance(t, e, acct))
		require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
	})

	t.Run("WithoutApprovalTheAnswerIsIgnored", func(t *testing.T) {
		sender := &answeringSender{replies: []reply{{status: 403}}}
		e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Notifier = sender })
		setEndpoint(t, e)
		c, acct := umaReceiver(t, e)
		tx, err := e.Eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: c,
			ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 300})
		require.NoError(t, err)
		assert.Equal(t, payments.TxCompleted, tx.Status)
		_, err = e.Eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
		assert.EqualValues(t, 300, balance(t, e, acct))
	})
}

// approvalEnv is a sandbox engine with IncomingApproval whose webhooks go to
// sender through a configured endpoint.
func approvalEnv(t *testing.T, sender *answeringSender) *enginetest.Env {
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.IncomingApproval, c.Notifier = true, sender })
	setEndpoint(t, e)
	return e
}

func setEndpoint(t *testing.T, e *enginetest.Env) {
	url := "https://hooks.example.com/payments"
	_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &url})
	require.NoError(t, err)
}

// umaReceiver creates a USD customer and returns it and its USD account.
func umaReceiver(t *testing.T, e *enginetest.Env) (string, string) {
	in := enginetest.FullIndividual("Jane Doe")
	in.Currencies = []string{"USD"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	return c.ID, page.Data[0].ID
}

func balance(t *testing.T, e *enginetest.Env, account string) int64 {
	a, err := e.Eng.Accounts.Internal(ctx, account)
	require.NoError(t, err)
	raw, _ := json.Marshal(a.Balance)
	var b struct{ Amount int64 }
	require.NoError(t, json.Unmarshal(raw, &b))
	return b.Amount
}

// TestEngine_IncomingApproval: with IncomingApproval an incoming UMA payment
// waits for the platform: approved it lands, rejected it does not, and
// unanswered it times out after ApprovalWindow.
func TestEngine_IncomingApproval(t *testing.T) {
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.IncomingApproval = true })
	in := enginetest.FullIndividual("Jane Doe")
	in.Currencies, in.UmaAddress = []string{"USD"}, "$jane@sandbox.uma.money"
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	receive := func() *payments.Transaction {
		tx, err := e.Eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: c.ID,
			ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 500})
		require.NoError(t, err)
		require.Equal(t, payments.TxPending, tx.Status)
		return tx
	}
	approved, rejected, ignored, late := receive(), receive(), receive(), receive()
	tx, err := e.Eng.Transactions.Decide(ctx, approved.ID, payments.ApproveIncoming)
	require.NoError(t, err)
	assert.Equal(t, payments.TxCompleted, tx.Status)
	tx, err = e.Eng.Transactions.Decide(ctx, rejected.ID, payments.RejectIncoming)
	require.NoError(t, err)
	assert.Equal(t, payments.TxRejected, tx.Status)
	_, err = e.Eng.Transactions.Decide(ctx, approved.ID, payments.ApproveIncoming)
	enginetest.RequireCode(t, err, payments.CodeTransactionNotPendingPlatformApproval)

	e.Clock.Advance(payments.ApprovalWindow + 1e9)
	// Judged by the deadline, not by when the worker last ran.
	_, err = e.Eng.Transactions.Decide(ctx, late.ID, payments.ApproveIncoming)
	enginetest.RequireCode(t, err, payments.CodeTransactionNotPendingPlatformApproval)
	tx, err = e.Eng.Transactions.Get(ctx, late.ID)
	require.NoError(t, err)
	assert.Equal(t, "PAYMENT_APPROVAL_TIMED_OUT", tx.FailureReason)
	_, err = e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	tx, err = e.Eng.Transactions.Get(ctx, ignored.ID)
	require.NoError(t, err)
	assert.Equal(t, "PAYMENT_APPROVAL_TIMED_OUT", tx.FailureReason)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	assert.EqualValues(t, 500, page.Data[0].Balance.Amount, "only the approved payment landed")
	require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
}

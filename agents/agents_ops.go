package agents

import (
	"context"
	"errors"
	"iter"
	"strings"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/quotes"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/validate"
)

// The operations below are the agent's own (/agents/me): agentID is the
// agent its credential authenticated as (Authenticate). Each reads the agent
// again in its own transaction, so a pause or delete applies at once; each
// is scoped to the agent's customer: another customer's object is the same
// NOT_FOUND as a missing one.
//
// Every one of them may answer UNAUTHORIZED (the agent was deleted, or its
// credential revoked) and FORBIDDEN (the agent is paused, details.reason
// AGENT_PAUSED, or its policy lacks the operation's permission,
// PERMISSION_MISSING); the comments below name the other codes.

// acting reads agent agentID in a read transaction and checks perm. For
// operations that delegate to another area's operation, which runs its
// own transaction: the check and the delegated call are not atomic, which
// is acceptable for reads and for changes a pause need not stop midway.
func acting(ctx context.Context, e *engine.Handle, agentID string, perm Permission) (*agentRecord, error) {
	var a *agentRecord
	err := e.View(ctx, func(t *engine.Txn) error {
		var err error
		a, err = actingAgent(t, agentID, perm)
		return err
	})
	return a, err
}

// Me returns the agent itself, with its usage as of now.
func (g Service) Me(ctx context.Context, agentID string) (*Agent, error) {
	return engine.Run(ctx, g.e, meOp, agentID)
}

// meOp is Service.Me's operation: it checks the agent in a read and hands
// the work to another area's operation, which runs its own transaction,
// in Prefetch (delegate), which settles the answer.
var meOp = engine.Op[string, *Agent, delegated[*Agent]]{Area: "agents", Name: "Me", Access: engine.Read,
	Prefetch: delegate(func(ctx context.Context, e *engine.Handle, in *string) (*Agent, error) {
		a, err := acting(ctx, e, *in, "")
		if err != nil {
			return nil, err
		}
		return agentView(a, e.Now()), nil
	}),
	Decide: noDecide[string, *Agent], Answer: answerDelegated[string, *Agent]}

// Transactions lists the transactions of the agent's customer
// (VIEW_TRANSACTIONS); f's customer members are ignored, so no filter can
// widen the list past the customer. INVALID_INPUT for a bad limit or
// cursor.
func (g Service) Transactions(ctx context.Context, agentID string, f quotes.TransactionFilter, p engine.ListParams) (engine.Page[quotes.Transaction], error) {
	return engine.Run(ctx, g.e, transactionsOp, txList{agentID, f, p})
}

// transactionsOp is Service.Transactions's operation.
var transactionsOp = engine.Op[txList, engine.Page[quotes.Transaction], struct{}]{Area: "agents", Name: "Transactions", Access: engine.Read,
	Decide: func(t *engine.Txn, in *txList, _ *struct{}) (out engine.Page[quotes.Transaction], err error) {
		agentID, f, p := in.agentID, in.f, in.p
		err = func() error {
			a, err := actingAgent(t, agentID, ViewTransactions)
			if err != nil {
				return err
			}
			f.CustomerID, f.PlatformCustomerID = a.CustomerID, ""
			out, err = engine.List(t, f.Query(), p)
			return err
		}()
		return out, err
	}}

// TransactionsAll walks every page of Transactions from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (g Service) TransactionsAll(ctx context.Context, agentID string, f quotes.TransactionFilter, p engine.ListParams) iter.Seq2[quotes.Transaction, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[quotes.Transaction], error) {
		return g.Transactions(ctx, agentID, f, p)
	})
}

// Transaction returns one transaction of the agent's customer
// (VIEW_TRANSACTIONS); TRANSACTION_NOT_FOUND for another customer's, as
// for a missing one.
func (g Service) Transaction(ctx context.Context, agentID, id string) (*quotes.Transaction, error) {
	return engine.Run(ctx, g.e, transactionOp, [2]string{agentID, id})
}

// transactionOp is Service.Transaction's operation.
var transactionOp = engine.Op[[2]string, *quotes.Transaction, struct{}]{Area: "agents", Name: "Transaction", Access: engine.Read,
	Decide: func(t *engine.Txn, in *[2]string, _ *struct{}) (out *quotes.Transaction, err error) {
		agentID, id := in[0], in[1]
		err = func() error {
			a, err := actingAgent(t, agentID, ViewTransactions)
			if err != nil {
				return err
			}
			tx, err := quotes.GetTransaction(t, id)
			if err == nil && tx.CustomerID != a.CustomerID {
				err = engine.Errorf(engine.CodeTransactionNotFound, "transaction %s not found", id)
			}
			out = tx
			return err
		}()
		return out, err
	}}

// InternalAccounts lists the internal accounts of the agent's customer
// (VIEW_TRANSACTIONS: they carry balances).
func (g Service) InternalAccounts(ctx context.Context, agentID string, f accounts.InternalAccountFilter, p engine.ListParams) (engine.Page[accounts.InternalAccountView], error) {
	return engine.Run(ctx, g.e, internalAccountsOp, internalList{agentID, f, p})
}

// internalAccountsOp is Service.InternalAccounts's operation: it checks the agent in a read and hands
// the work to another area's operation, which runs its own transaction,
// in Prefetch (delegate), which settles the answer.
var internalAccountsOp = engine.Op[internalList, engine.Page[accounts.InternalAccountView], delegated[engine.Page[accounts.InternalAccountView]]]{Area: "agents", Name: "InternalAccounts", Access: engine.Read,
	Prefetch: delegate(func(ctx context.Context, e *engine.Handle, in *internalList) (engine.Page[accounts.InternalAccountView], error) {
		a, err := acting(ctx, e, in.agentID, ViewTransactions)
		if err != nil {
			return engine.Page[accounts.InternalAccountView]{}, err
		}
		f := in.f
		f.CustomerID = a.CustomerID
		return accounts.NewService(e).ListInternal(ctx, f, accounts.CustomerScope, in.p)
	}),
	Decide: noDecide[internalList, engine.Page[accounts.InternalAccountView]], Answer: answerDelegated[internalList, engine.Page[accounts.InternalAccountView]]}

// InternalAccountsAll walks every page of InternalAccounts from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (g Service) InternalAccountsAll(ctx context.Context, agentID string, f accounts.InternalAccountFilter, p engine.ListParams) iter.Seq2[accounts.InternalAccountView, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[accounts.InternalAccountView], error) {
		return g.InternalAccounts(ctx, agentID, f, p)
	})
}

// ExternalAccounts lists the external accounts of the agent's customer
// (MANAGE_EXTERNAL_ACCOUNTS).
func (g Service) ExternalAccounts(ctx context.Context, agentID string, f accounts.ExternalAccountFilter, p engine.ListParams) (engine.Page[rails.ExternalAccount], error) {
	return engine.Run(ctx, g.e, externalAccountsOp, externalList{agentID, f, p})
}

// externalAccountsOp is Service.ExternalAccounts's operation: it checks the agent in a read and hands
// the work to another area's operation, which runs its own transaction,
// in Prefetch (delegate), which settles the answer.
var externalAccountsOp = engine.Op[externalList, engine.Page[rails.ExternalAccount], delegated[engine.Page[rails.ExternalAccount]]]{Area: "agents", Name: "ExternalAccounts", Access: engine.Read,
	Prefetch: delegate(func(ctx context.Context, e *engine.Handle, in *externalList) (engine.Page[rails.ExternalAccount], error) {
		a, err := acting(ctx, e, in.agentID, ManageExternalAccounts)
		if err != nil {
			return engine.Page[rails.ExternalAccount]{}, err
		}
		f := in.f
		f.CustomerID = a.CustomerID
		return accounts.NewService(e).ListExternal(ctx, f, accounts.CustomerScope, in.p)
	}),
	Decide: noDecide[externalList, engine.Page[rails.ExternalAccount]], Answer: answerDelegated[externalList, engine.Page[rails.ExternalAccount]]}

// ExternalAccountsAll walks every page of ExternalAccounts from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (g Service) ExternalAccountsAll(ctx context.Context, agentID string, f accounts.ExternalAccountFilter, p engine.ListParams) iter.Seq2[rails.ExternalAccount, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[rails.ExternalAccount], error) {
		return g.ExternalAccounts(ctx, agentID, f, p)
	})
}

// ownExternal reads external account id of a's customer:
// ACCOUNT_NOT_FOUND for another customer's, as for a missing one.
func ownExternal(t *engine.Txn, a *agentRecord, id string) (*accounts.ExternalRecord, error) {
	r, err := accounts.ExternalRecordOf(t, id)
	if err == nil && r.CustomerID != a.CustomerID {
		err = engine.Errorf(engine.CodeAccountNotFound, "external account %s not found", id)
	}
	return r, err
}

// ownInternal reads internal account id of a's customer:
// ACCOUNT_NOT_FOUND for another customer's, as for a missing one.
func ownInternal(t *engine.Txn, a *agentRecord, id string) (*accounts.InternalAccount, error) {
	ia, err := accounts.Internal(t, id)
	if err == nil && ia.CustomerID != a.CustomerID {
		err = engine.Errorf(engine.CodeAccountNotFound, "internal account %s not found", id)
	}
	return ia, err
}

// ExternalAccount returns one external account of the agent's customer
// (MANAGE_EXTERNAL_ACCOUNTS); ACCOUNT_NOT_FOUND for any other.
func (g Service) ExternalAccount(ctx context.Context, agentID, id string) (*rails.ExternalAccount, error) {
	return engine.Run(ctx, g.e, externalAccountOp, [2]string{agentID, id})
}

// externalAccountOp is Service.ExternalAccount's operation.
var externalAccountOp = engine.Op[[2]string, *rails.ExternalAccount, struct{}]{Area: "agents", Name: "ExternalAccount", Access: engine.Read,
	Decide: func(t *engine.Txn, in *[2]string, _ *struct{}) (out *rails.ExternalAccount, err error) {
		agentID, id := in[0], in[1]
		err = func() error {
			a, err := actingAgent(t, agentID, ManageExternalAccounts)
			if err != nil {
				return err
			}
			r, err := ownExternal(t, a, id)
			if err == nil {
				out = &r.ExternalAccount
			}
			return err
		}()
		return out, err
	}}

// CreateExternalAccount adds an external account for the agent's customer
// (MANAGE_EXTERNAL_ACCOUNTS); customerId may be omitted and must otherwise
// be the agent's customer (INVALID_INPUT). The account is created by the
// accounts area's operation, with its codes and its idempotency.
func (g Service) CreateExternalAccount(ctx context.Context, agentID string, in accounts.ExternalAccountInput) (*rails.ExternalAccount, error) {
	return engine.Run(ctx, g.e, createExternalAccountOp, externalCreate{agentID, in})
}

// createExternalAccountOp is Service.CreateExternalAccount's operation: it checks the agent in a read and hands
// the work to another area's operation, which runs its own transaction,
// in Prefetch (delegate), which settles the answer.
var createExternalAccountOp = engine.Op[externalCreate, *rails.ExternalAccount, delegated[*rails.ExternalAccount]]{Area: "agents", Name: "CreateExternalAccount", Access: engine.Read,
	Prefetch: delegate(func(ctx context.Context, e *engine.Handle, in *externalCreate) (*rails.ExternalAccount, error) {
		a, err := acting(ctx, e, in.agentID, ManageExternalAccounts)
		if err != nil {
			return nil, err
		}
		x := in.in
		if x.CustomerID != "" && x.CustomerID != a.CustomerID {
			var fe validate.Errors
			fe.Add("customerId", nil, "customerId must be the agent's customer (or omitted)")
			return nil, engine.Invalid(fe)
		}
		x.CustomerID = a.CustomerID
		return accounts.NewService(e).CreateExternal(ctx, x, accounts.CustomerScope)
	}),
	Decide: noDecide[externalCreate, *rails.ExternalAccount], Answer: answerDelegated[externalCreate, *rails.ExternalAccount]}

// DeleteExternalAccount deletes an external account of the agent's customer
// (MANAGE_EXTERNAL_ACCOUNTS). An account's owner never changes, so checking
// it first is as good as checking it in the delete's transaction.
func (g Service) DeleteExternalAccount(ctx context.Context, agentID, id string) error {
	_, err := engine.Run(ctx, g.e, deleteExternalAccountOp, [2]string{agentID, id})
	return err
}

// deleteExternalAccountOp is Service.DeleteExternalAccount's operation: it checks the agent in a read and hands
// the work to another area's operation, which runs its own transaction,
// in Prefetch (delegate), which settles the answer.
var deleteExternalAccountOp = engine.Op[[2]string, struct{}, delegated[struct{}]]{Area: "agents", Name: "DeleteExternalAccount", Access: engine.Read,
	Prefetch: delegate(func(ctx context.Context, e *engine.Handle, in *[2]string) (struct{}, error) {
		if _, err := engine.Run(ctx, e, externalAccountOp, *in); err != nil {
			return struct{}{}, err
		}
		return struct{}{}, accounts.NewService(e).DeleteExternal(ctx, in[1], accounts.CustomerScope)
	}),
	Decide: noDecide[[2]string, struct{}], Answer: answerDelegated[[2]string, struct{}]}

// checkQuoteScope checks that an agent's quote request is funded from an
// account and not executed at once (INVALID_INPUT), that every account it
// names belongs to a's customer (ACCOUNT_NOT_FOUND otherwise) and that the
// policy allows its source (FORBIDDEN, ACCOUNT_NOT_ALLOWED).
func checkQuoteScope(t *engine.Txn, a *agentRecord, req *quotes.Request) error {
	var fe validate.Errors
	if req.Source.SourceType != quotes.SourceAccount {
		fe.Add("source.sourceType", &validate.Constraint{Enum: []string{"ACCOUNT"}}, "an agent's quote is funded from an account of its customer")
	}
	if req.ImmediatelyExecute {
		fe.Add("immediatelyExecute", nil, "an agent executes its quote with POST /agents/me/quotes/{quoteId}/execute, under its policy")
	}
	if c := req.Source.CustomerID; c != "" && c != a.CustomerID {
		fe.Add("source.customerId", nil, "source.customerId must be the agent's customer (or omitted)")
	}
	if err := engine.Invalid(fe.Err()); err != nil {
		return err
	}
	src := req.Source.AccountID
	if strings.HasPrefix(src, "ExternalAccount:") {
		if _, err := ownExternal(t, a, src); err != nil {
			return err
		}
	} else if _, err := ownInternal(t, a, src); err != nil {
		return err
	}
	if !a.Policy.Allows(src) {
		return &engine.Error{Code: engine.CodeForbidden, Message: "the agent's policy does not allow account " + src, Details: map[string]any{"reason": string(AccountNotAllowed)}}
	}
	if d := req.Destination; d.DestinationType == quotes.DestinationAccount {
		var err error
		if strings.HasPrefix(d.AccountID, "ExternalAccount:") {
			_, err = ownExternal(t, a, d.AccountID)
		} else {
			_, err = ownInternal(t, a, d.AccountID)
		}
		return err
	}
	return nil
}

// CreateQuote prices a quote for the agent's customer (CREATE_QUOTES): its
// accounts must be the customer's and its source one the policy allows.
// It executes only through ExecuteQuote, where the policy applies.
// INVALID_INPUT and ACCOUNT_NOT_FOUND as checkQuoteScope says, then the
// quotes area's own answers (QUOTE_RATE_UNAVAILABLE, AMOUNT_OUT_OF_RANGE,
// ...). The quote records the agent (Record.AgentID): only that agent can
// read or execute it. Pricing is the quotes area's, with its idempotency.
func (g Service) CreateQuote(ctx context.Context, agentID string, req quotes.Request) (*quotes.Quote, error) {
	return engine.Run(ctx, g.e, createQuoteOp, quoteCreate{agentID, req})
}

// createQuoteOp is Service.CreateQuote's operation: it checks the agent in a read and hands
// the work to another area's operation, which runs its own transaction,
// in Prefetch (delegate), which settles the answer.
var createQuoteOp = engine.Op[quoteCreate, *quotes.Quote, delegated[*quotes.Quote]]{Area: "agents", Name: "CreateQuote", Access: engine.Read,
	Prefetch: delegate(func(ctx context.Context, e *engine.Handle, in *quoteCreate) (*quotes.Quote, error) {
		req := in.req
		err := e.View(ctx, func(t *engine.Txn) error {
			a, err := actingAgent(t, in.agentID, CreateQuotes)
			if err != nil {
				return err
			}
			return checkQuoteScope(t, a, &req)
		})
		if err != nil {
			return nil, err
		}
		req.AgentID = in.agentID
		return quotes.NewService(e).Create(ctx, req)
	}),
	Decide: noDecide[quoteCreate, *quotes.Quote], Answer: answerDelegated[quoteCreate, *quotes.Quote]}

// agentQuote reads a quote the agent created (QUOTE_NOT_FOUND for any
// other, the platform's and other agents' quotes included).
func agentQuote(t *engine.Txn, agentID, id string) (*quotes.Record, error) {
	q, err := quotes.Get(t, id)
	if err == nil && q.AgentID != agentID {
		err = engine.Errorf(engine.CodeQuoteNotFound, "quote %s not found", id)
	}
	return q, err
}

// Quote returns a quote the agent created; QUOTE_NOT_FOUND for any other.
// It needs no permission beyond a working credential.
func (g Service) Quote(ctx context.Context, agentID, id string) (*quotes.Quote, error) {
	return engine.Run(ctx, g.e, quoteOp, [2]string{agentID, id})
}

// quoteOp is Service.Quote's operation.
var quoteOp = engine.Op[[2]string, *quotes.Quote, struct{}]{Area: "agents", Name: "Quote", Access: engine.Read,
	Decide: func(t *engine.Txn, in *[2]string, _ *struct{}) (out *quotes.Quote, err error) {
		agentID, id := in[0], in[1]
		err = func() error {
			if _, err := actingAgent(t, agentID, ""); err != nil {
				return err
			}
			q, err := agentQuote(t, agentID, id)
			if err == nil {
				out = &q.Quote
			}
			return err
		}()
		return out, err
	}}

// ExecuteQuote executes a quote the agent created (EXECUTE_QUOTES) under its
// policy, in one transaction: a broken hard limit is FORBIDDEN with
// nothing changed; an action that needs approval is recorded
// PENDING_APPROVAL (webhook AGENT_ACTION.PENDING_APPROVAL) and the quote
// waits; otherwise the spend is counted and the quote executes, and the
// action is APPROVED with its transaction. A customer that may not send
// (kycStatus or kybStatus REJECTED or HOLD) is SENDER_NOT_ACCEPTED, with no
// action recorded.
//
// Other answers: QUOTE_NOT_FOUND (not the agent's quote), QUOTE_EXPIRED
// (the quote is found expired, and marked so in the same commit), CONFLICT
// (the quote is no longer PENDING: a quote executes once),
// QUOTE_RATE_UNAVAILABLE (the policy's currency has no rate), and the
// execution's own (INSUFFICIENT_FUNDS; WALLET_SIGNATURE_MISSING for a
// quote paid from an embedded wallet, which an agent cannot sign).
//
// The idempotency fingerprint is the quote id, so a retry of the same
// execution replays its action. Concurrent executes of one agent serialize
// on its record (spendCheck); concurrent executes of one quote run it once.
func (g Service) ExecuteQuote(ctx context.Context, agentID, quoteID string) (*AgentAction, error) {
	return engine.Run(ctx, g.e, executeQuoteOp, [2]string{agentID, quoteID})
}

// spending is what an operation that spends under an agent's policy
// gathers before its transaction: the action's amount converted into the
// policy's currencies of the time (spendOf: limit lc, threshold tc) and
// the id of the action it records.
type spending struct {
	s      Spend
	lc, tc string
	id     string
}

// executeQuoteOp is Service.ExecuteQuote's operation: the agent and the
// quote are read and the spend converted in Prefetch, and decided for good
// in the transaction, which finds the policy moved (moved) when its
// currencies changed since: the spend is converted again and decided again,
// as the same idempotent call, for as long as that happens.
var executeQuoteOp = engine.Op[[2]string, *AgentAction, spending]{Area: "agents", Name: "ExecuteQuote", Refetches: engine.Unbounded,
	Fingerprint: func(in *[2]string) any { return in[1] },
	Prefetch: func(ctx context.Context, e *engine.Handle, in *[2]string, f *spending, _ error) error {
		agentID, quoteID := in[0], in[1]
		var a *agentRecord
		var q *quotes.Record
		err := e.View(ctx, func(t *engine.Txn) error {
			var err error
			if a, err = actingAgent(t, agentID, ExecuteQuotes); err != nil {
				return err
			}
			q, err = agentQuote(t, agentID, quoteID)
			return err
		})
		if err != nil {
			return err
		}
		if f.s, f.lc, f.tc, err = spendOf(e, ctx, a, q.SendingCurrency.Code, quoteAmounts(q), q.Source.AccountID, q.TotalSendingAmount); err != nil {
			return err
		}
		f.id, err = e.NewID("AgentAction")
		return err
	},
	Decide: func(t *engine.Txn, in *[2]string, f *spending) (*AgentAction, error) {
		out, err := executeQuote(t, in[0], in[1], f)
		return out, moved(err)
	}}

// executeQuote is executeQuoteOp's decision in t. A quote found expired is
// marked so and refused in the same commit (engine.Keep).
func executeQuote(t *engine.Txn, agentID, quoteID string, f *spending) (*AgentAction, error) {
	a, err := actingAgent(t, agentID, ExecuteQuotes)
	if err != nil {
		return nil, err
	}
	q, err := agentQuote(t, agentID, quoteID)
	if err != nil {
		return nil, err
	}
	if q.Status == quotes.Expired {
		return nil, engine.Errorf(engine.CodeQuoteExpired, "quote %s expired at %s; request a new quote", quoteID, q.ExpiresAt.Format("2006-01-02T15:04:05Z"))
	}
	if q.Status != quotes.Pending {
		return nil, engine.Errorf(engine.CodeConflict, "quote %s is %s; a quote executes once", q.ID, q.Status)
	}
	if expired, err := quotes.ExpireIfDue(t, q); err != nil || expired {
		if err == nil {
			err = engine.Keep(engine.Errorf(engine.CodeQuoteExpired, "quote %s expired at %s; request a new quote", quoteID, q.ExpiresAt.Format("2006-01-02T15:04:05Z")))
		}
		return nil, err
	}
	// A customer that may not send has no action recorded either, not
	// even one waiting for approval.
	if _, err := customers.Sending(t, a.CustomerID); err != nil {
		return nil, err
	}
	d, err := spendCheck(t, a, f.s, f.lc, f.tc, false)
	if err != nil {
		return nil, err
	}
	r, err := newAction(t, f.id, a, ExecuteQuote, PendingApproval)
	if err != nil {
		return nil, err
	}
	r.QuoteID = q.ID
	if !d.NeedsApproval {
		if _, err := spendCheck(t, a, f.s, f.lc, f.tc, true); err != nil {
			return nil, err
		}
		if err := quotes.Execute(t, q); err != nil {
			return nil, err
		}
		r.Status, r.TransactionID = Approved, q.TransactionID
	}
	return saveAction(t, r)
}

// moved marks errPolicyMoved for the runner as Missing: the operation
// converts its amount again into the policy as it is now and decides again
// (Refetches: engine.Unbounded), as the same idempotent call.
func moved(err error) error {
	if errors.Is(err, errPolicyMoved) {
		return engine.Missing(err)
	}
	return err
}

// AgentTransfer is the body of POST /agents/me/transfer-out and transfer-in:
// SourceAccountID and DestinationAccountID are the customer's internal and
// external accounts (external and internal for a transfer in), Amount is in
// the internal account's currency (1..money.MaxAmount), and the remittance
// information and purpose of payment apply to a transfer out only.
type AgentTransfer struct {
	SourceAccountID       string
	DestinationAccountID  string
	Amount                int64
	RemittanceInformation string
	PurposeOfPayment      string
}

// TransferOut sends money from an internal account of the agent's customer
// to one of its external accounts (CREATE_TRANSFERS), under the policy as
// ExecuteQuote describes. It runs as a same-currency quote created and
// executed in one transaction, so its answers include the quotes area's
// (INSUFFICIENT_FUNDS, SENDER_NOT_ACCEPTED); ACCOUNT_NOT_FOUND for an
// account that is not the customer's.
func (g Service) TransferOut(ctx context.Context, agentID string, in AgentTransfer) (*AgentAction, error) {
	return engine.Run(ctx, g.e, transferOutOp, agentTransfer{agentID, in})
}

// TransferIn pulls money from an external account of the agent's customer
// into its internal account (CREATE_TRANSFERS), under the policy as
// ExecuteQuote describes; ACCOUNT_NOT_FOUND for an account that is not
// the customer's. The pull is an intent of the quotes area, handed to the
// rail after commit.
func (g Service) TransferIn(ctx context.Context, agentID string, in AgentTransfer) (*AgentAction, error) {
	return engine.Run(ctx, g.e, transferInOp, agentTransfer{agentID, in})
}

// agentTransfer is a TransferOut or TransferIn request: the agent and the
// transfer.
type agentTransfer struct {
	agentID string
	t       AgentTransfer
}

// quote is the same-currency quote of a transfer out (transferQuote).
func (in *agentTransfer) quote() quotes.Request {
	return (&actionRecord{AgentAction: AgentAction{AgentID: in.agentID, TransferDetails: &AgentTransferDetails{Amount: in.t.Amount,
		SourceAccountID: in.t.SourceAccountID, DestinationAccountID: in.t.DestinationAccountID}}, Remittance: in.t.RemittanceInformation, Purpose: in.t.PurposeOfPayment}).transferQuote()
}

// transferring is what a transfer gathers before its transaction: the
// spend, the transfer's details, whether the policy asks for approval (or
// refuses) as it stood, which chooses the path, and the answer of the
// quote that moved the money (a transfer out that needs no approval).
type transferring struct {
	spending
	details  *AgentTransferDetails
	approval bool
	out      *AgentAction
}

// transferOutOp is Service.TransferOut's operation and transferInOp
// TransferIn's. The policy is evaluated once in Prefetch to choose the
// path: record a pending action (or the refusal) in the operation's
// transaction, or move the money: a transfer out as a quote created and
// executed by the quotes area (quotes.Create, which settles the answer), a
// transfer in in the operation's transaction. Where the money moves or
// the action is recorded, the policy is evaluated again and decides for
// good; a policy that changed in between (moved) sends the operation round
// again.
//
// Every write of the operation fingerprints the same input (a transfer
// out's quote, whichever path records the answer; a transfer in's body),
// so that a replay is recognised whichever path recorded it.
var (
	transferOutOp = engine.Op[agentTransfer, *AgentAction, transferring]{Area: "agents", Name: "TransferOut", Refetches: engine.Unbounded,
		Fingerprint: func(in *agentTransfer) any { return in.quote() },
		Validate:    validateTransfer(TransferOut),
		Prefetch:    fetchTransfer(TransferOut),
		Decide:      transferDecision(TransferOut),
		Answer:      answerTransfer,
	}
	transferInOp = engine.Op[agentTransfer, *AgentAction, transferring]{Area: "agents", Name: "TransferIn", Refetches: engine.Unbounded,
		Fingerprint: func(in *agentTransfer) any { return in.t },
		Validate:    validateTransfer(TransferIn),
		Prefetch:    fetchTransfer(TransferIn),
		Decide:      transferDecision(TransferIn),
		Answer:      answerTransfer,
	}
)

// validateTransfer is the Validate of a transfer of type typ: every bad
// field at once.
func validateTransfer(typ ActionType) func(in *agentTransfer) error {
	return func(in *agentTransfer) error {
		var fe validate.Errors
		fe.Required("source.accountId", in.t.SourceAccountID)
		fe.Required("destination.accountId", in.t.DestinationAccountID)
		if in.t.Amount < 1 || in.t.Amount > money.MaxAmount {
			fe.Add("amount", nil, "amount must be between 1 and %d", money.MaxAmount)
		}
		if typ == TransferOut {
			fe.MaxLen("remittanceInformation", in.t.RemittanceInformation, quotes.MaxRemittanceInformation)
			fe.Enum("purposeOfPayment", in.t.PurposeOfPayment, quotes.PurposesOfPayment...)
		}
		return engine.Invalid(fe.Err())
	}
}

// fetchTransfer is the Prefetch of a transfer of type typ: it reads the
// agent and the accounts, converts the spend, chooses the path, and moves
// the money of a transfer out that needs no approval (quotes.Create),
// which settles the answer.
func fetchTransfer(typ ActionType) func(ctx context.Context, e *engine.Handle, in *agentTransfer, f *transferring, _ error) error {
	return func(ctx context.Context, e *engine.Handle, in *agentTransfer, f *transferring, _ error) error {
		*f = transferring{}
		internalID, externalID := in.t.SourceAccountID, in.t.DestinationAccountID
		if typ == TransferIn {
			internalID, externalID = externalID, internalID
		}
		var a *agentRecord
		var ia *accounts.InternalAccount
		err := e.View(ctx, func(t *engine.Txn) error {
			var err error
			if a, err = actingAgent(t, in.agentID, CreateTransfers); err != nil {
				return err
			}
			if ia, err = ownInternal(t, a, internalID); err != nil {
				return err
			}
			_, err = ownExternal(t, a, externalID)
			return err
		})
		if err != nil {
			return err
		}
		if f.s, f.lc, f.tc, err = spendOf(e, ctx, a, ia.Currency, map[string]int64{ia.Currency: in.t.Amount}, ia.ID, in.t.Amount); err != nil {
			return err
		}
		d := Evaluate(&a.Policy, Roll(a.Usage, e.Now()), f.s)
		if f.id, err = e.NewID("AgentAction"); err != nil {
			return err
		}
		f.details = &AgentTransferDetails{Amount: in.t.Amount, Currency: ia.Currency, SourceAccountID: in.t.SourceAccountID, DestinationAccountID: in.t.DestinationAccountID}
		f.approval = d.NeedsApproval || d.Refused != ""
		if f.approval || typ == TransferIn {
			return nil
		}
		f.out, err = quotes.Create(ctx, e, in.quote(), true, func(t *engine.Txn, q *quotes.Record) (*AgentAction, error) {
			return decideTransfer(t, typ, in, f, false, func(*agentRecord) (string, error) { return q.TransactionID, nil })
		})
		if err != nil {
			return moved(err)
		}
		return engine.Settled
	}
}

// transferDecision is the Decide of a transfer of type typ: it records
// the pending action (or the refusal), or moves the money of a transfer
// in (a transfer out's moved in Prefetch).
func transferDecision(typ ActionType) func(t *engine.Txn, in *agentTransfer, f *transferring) (*AgentAction, error) {
	return func(t *engine.Txn, in *agentTransfer, f *transferring) (*AgentAction, error) {
		if f.approval {
			out, err := decideTransfer(t, typ, in, f, true, nil)
			return out, moved(err)
		}
		out, err := decideTransfer(t, typ, in, f, false, func(a *agentRecord) (string, error) {
			tx, err := quotes.TransferIn(t, in.t.SourceAccountID, in.t.DestinationAccountID, in.t.Amount, a.ID)
			if err != nil {
				return "", err
			}
			return tx.ID, nil
		})
		return out, moved(err)
	}
}

// answerTransfer is the Answer of a transfer: the answer of the quote that
// moved the money, when Prefetch settled it.
func answerTransfer(_ *engine.Handle, _ *agentTransfer, f *transferring, out *AgentAction, err error) (*AgentAction, error) {
	if f.out != nil {
		return f.out, err
	}
	return out, err
}

// decideTransfer runs in the transaction that moves the money (or records
// the pending action): it reads the agent again and decides for good;
// errPolicyMoved when the policy no longer takes the path wantApproval
// chose. txID moves the money and names its transaction.
func decideTransfer(t *engine.Txn, typ ActionType, in *agentTransfer, f *transferring, wantApproval bool, txID func(a *agentRecord) (string, error)) (*AgentAction, error) {
	a, err := actingAgent(t, in.agentID, CreateTransfers)
	if err != nil {
		return nil, err
	}
	if typ == TransferOut {
		if _, err := customers.Sending(t, a.CustomerID); err != nil {
			return nil, err
		}
	}
	d, err := spendCheck(t, a, f.s, f.lc, f.tc, !wantApproval)
	if err != nil {
		return nil, err
	}
	if d.NeedsApproval != wantApproval {
		return nil, errPolicyMoved // the policy changed: decide again
	}
	r, err := newAction(t, f.id, a, typ, PendingApproval)
	if err != nil {
		return nil, err
	}
	r.TransferDetails, r.Remittance, r.Purpose = f.details, in.t.RemittanceInformation, in.t.PurposeOfPayment
	if !wantApproval {
		r.Status = Approved
		if r.TransactionID, err = txID(a); err != nil {
			return nil, err
		}
	}
	return saveAction(t, r)
}

// Action returns one of the agent's actions, with its quote and
// transaction as they stand now; NOT_FOUND for another agent's.
func (g Service) Action(ctx context.Context, agentID, id string) (*AgentAction, error) {
	return engine.Run(ctx, g.e, actionOp, [2]string{agentID, id})
}

// actionOp is Service.Action's operation.
var actionOp = engine.Op[[2]string, *AgentAction, struct{}]{Area: "agents", Name: "Action", Access: engine.Read,
	Decide: func(t *engine.Txn, in *[2]string, _ *struct{}) (out *AgentAction, err error) {
		agentID, id := in[0], in[1]
		err = func() error {
			if _, err := actingAgent(t, agentID, ""); err != nil {
				return err
			}
			r, err := action(t, id)
			if err == nil && r.AgentID != agentID {
				err = engine.Errorf(engine.CodeNotFound, "agent action %s not found", id)
			}
			if err != nil {
				return err
			}
			out, err = actionView(t, r)
			return err
		}()
		return out, err
	}}

// Actions lists the agent's actions, optionally in one status (INVALID_INPUT
// for an unknown one), in creation order, newest first with p.Desc (the
// HTTP route's default); a page at a time from the agent's index.
func (g Service) Actions(ctx context.Context, agentID string, status ActionStatus, p engine.ListParams) (engine.Page[AgentAction], error) {
	return engine.Run(ctx, g.e, actionsOp, actionList{agentID, status, p})
}

// actionsOp is Service.Actions's operation.
var actionsOp = engine.Op[actionList, engine.Page[AgentAction], struct{}]{Area: "agents", Name: "Actions", Access: engine.Read,
	Validate: func(in *actionList) error {
		var fe validate.Errors
		fe.Enum("status", string(in.status), ActionStatuses...)
		return engine.Invalid(fe.Err())
	},
	Decide: func(t *engine.Txn, in *actionList, _ *struct{}) (out engine.Page[AgentAction], err error) {
		agentID, status, p := in.agentID, in.status, in.p
		err = func() error {
			if _, err := actingAgent(t, agentID, ""); err != nil {
				return err
			}
			q := engine.ListQuery[actionRecord]{Table: tableAgentActions, Index: ixAgent, Value: agentID,
				Match: func(r *actionRecord) bool { return status == "" || r.Status == status }}
			page, err := engine.List(t, q, p)
			if err != nil {
				return err
			}
			out, err = engine.MapPage(page, func(r *actionRecord) (*AgentAction, error) { return actionView(t, r) })
			return err
		}()
		return out, err
	}}

// ActionsAll walks every page of Actions from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (g Service) ActionsAll(ctx context.Context, agentID string, status ActionStatus, p engine.ListParams) iter.Seq2[AgentAction, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[AgentAction], error) {
		return g.Actions(ctx, agentID, status, p)
	})
}

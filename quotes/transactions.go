package quotes

import (
	"context"
	"iter"
	"slices"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes/records"
	"github.com/paygrid/payments/validate"
)

// tableTransactions holds transactions by id, with the indexes Area
// declares (customer, platform customer, status, type, account, reference).
// Package cards writes its card transactions here too.
const tableTransactions = "transactions"

// outgoingTransaction is the PENDING transaction of a new quote.
func outgoingTransaction(q *Record, now time.Time) *Transaction {
	rate := q.ExchangeRate.Float64()
	fees, pf := q.FeesIncluded, q.PlatformFeesIncluded
	src := TxParty{SourceType: q.Source.SourceType, AccountID: q.Source.AccountID, Currency: q.SendingCurrency.Code, CustomerID: q.Source.CustomerID}
	if src.SourceType == SourceRealtimeFunding {
		src.AccountID = ""
	} else {
		src.CustomerID = ""
	}
	dst := TxParty{DestinationType: q.Destination.DestinationType, AccountID: q.Destination.AccountID, UmaAddress: q.Destination.UmaAddress, Currency: q.ReceivingCurrency.Code}
	sent, recv := accounts.AmountOf(q.SendingCurrency.Code, q.TotalSendingAmount), accounts.AmountOf(q.ReceivingCurrency.Code, q.TotalReceivingAmount)
	status := TxPending
	if q.Status == PendingAuthorization {
		status = TxPendingAuthorization
	}
	return &Transaction{ID: q.TransactionID, Status: status, Type: TxOutgoing, Direction: TxDebit, Source: src, Destination: dst,
		CustomerID: q.CustomerID, SentAmount: &sent, ReceivedAmount: &recv, ExchangeRate: &rate, Fees: &fees, PlatformFees: &pf,
		QuoteID: q.ID, PaymentRail: txRail(q.Rail), Description: q.Description, CreatedAt: now, UpdatedAt: now,
		PaymentInstructions: txInstructions(q)}
}

// txInstructions are the payment instructions an outgoing transaction
// keeps: those of a real-time funded quote (none while SCA withholds
// them), as its payer was given them.
func txInstructions(q *Record) []accounts.PaymentInstructions {
	if q.Source.SourceType != SourceRealtimeFunding {
		return nil
	}
	return q.PaymentInstructions
}

// txRail is the paymentRail a transaction reports: the quote's rail when it
// is one of the reference's PaymentRail values, none for internal, UMA and
// crypto-network payments.
func txRail(rail string) PaymentRail {
	if slices.Contains(PaymentRails, rail) {
		return PaymentRail(rail)
	}
	return ""
}

// rememberTx notes that tx, encoded as b, was stored at its id: kept as it
// is when owned (a copy no one else holds), else cloned.
func rememberTx(t *engine.Txn, tx *Transaction, b []byte, owned bool) {
	if tx.Card != nil { // a card transaction's card is not cloned
		return
	}
	if !owned {
		tx = tx.Clone()
	}
	quotesSlot.Of(t.Handle).txs.Remember(tx.ID, b, tx)
}

// announceTx is SaveTransaction without storing tx: for a status a payment passes
// through on its way to the one the operation stores (PENDING and
// PROCESSING of a payment to an internal account, which completes at
// once). The event's data is the record as it would be stored, encoded
// straight into the event.
func announceTx(t *engine.Txn, tx *Transaction, event engine.EventType) error {
	if err := advanceTx(t, tx); err != nil || event == "" {
		return err
	}
	if err := checkPaymentEvent(tx, event); err != nil {
		return err
	}
	return t.EmitAppended(event, 1024, func(b []byte) ([]byte, error) { return records.AppendTransaction(b, tx) })
}

// advanceTx checks tx's status change against the state machine and stamps
// it.
func advanceTx(t *engine.Txn, tx *Transaction) error {
	if err := TxStatus(quoteState.Of(t).statuses[tx.ID]).Check(tx.Status); err != nil {
		return err
	}
	readStatus(t, tx.ID, string(tx.Status))
	tx.UpdatedAt = t.Now
	return nil
}

// Get returns one transaction (TRANSACTION_NOT_FOUND), a card transaction
// included.
func (ts Transactions) Get(ctx context.Context, id string) (*Transaction, error) {
	return engine.Run(ctx, ts.e, getTransaction, id)
}

// getTransaction is Transactions.Get's operation: one read.
var getTransaction = engine.Op[string, *Transaction, struct{}]{Area: "quotes", Name: "Transactions.Get", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Transaction, error) { return GetTransaction(t, *id) }}

// TransactionFilter narrows Transactions.List (reference filters). An
// account identifier is an account id or a UMA address; Reference matches
// the quote id (the reference of real-time funding instructions) or the
// refund's reference.
type TransactionFilter struct {
	CustomerID, PlatformCustomerID string
	Type                           TxType
	Status                         TxStatus
	AccountIdentifier              string // either side
	SenderAccountIdentifier        string
	ReceiverAccountIdentifier      string
	Reference                      string
	StartDate, EndDate             time.Time
}

// is reports whether the party is the account or UMA address id.
func partyIs(p TxParty, id string) bool { return id == p.AccountID || id == p.UmaAddress }

// matches reports whether tx passes every filter that is set.
func (f *TransactionFilter) matches(tx *Transaction) bool {
	set := func(v string) bool { return v != "" }
	switch {
	case set(f.CustomerID) && tx.CustomerID != f.CustomerID,
		set(f.PlatformCustomerID) && tx.PlatformCustomerID != f.PlatformCustomerID,
		f.Status != "" && tx.Status != f.Status,
		f.Type != "" && tx.Type != f.Type,
		set(f.AccountIdentifier) && !partyIs(tx.Source, f.AccountIdentifier) && !partyIs(tx.Destination, f.AccountIdentifier),
		set(f.SenderAccountIdentifier) && !partyIs(tx.Source, f.SenderAccountIdentifier),
		set(f.ReceiverAccountIdentifier) && !partyIs(tx.Destination, f.ReceiverAccountIdentifier),
		set(f.Reference) && tx.QuoteID != f.Reference && (tx.Refund == nil || tx.Refund.Reference != f.Reference):
		return false
	}
	return platform.InRange(tx.CreatedAt, f.StartDate, f.EndDate)
}

// Query reads the index of the most selective filter that has one (a
// reference or an account identifier names a few transactions, a customer
// more, a status or a type many), probes the indexes of the other indexed
// filters and checks every filter on the records.
func (f *TransactionFilter) Query() engine.ListQuery[Transaction] {
	q := engine.ListQuery[Transaction]{Table: tableTransactions, Index: engine.IxAll, From: f.StartDate, To: f.EndDate, Match: f.matches}
	return q.Narrowest(
		[2]string{ixReference, f.Reference},
		[2]string{ixAccount, f.AccountIdentifier},
		[2]string{ixAccount, f.SenderAccountIdentifier},
		[2]string{ixAccount, f.ReceiverAccountIdentifier},
		[2]string{ixCustomer, f.CustomerID},
		[2]string{ixPlatform, f.PlatformCustomerID},
		[2]string{engine.IxStatus, string(f.Status)},
		[2]string{engine.IxType, string(f.Type)})
}

// List lists transactions in creation order (newest first with p.Desc),
// card transactions included. A status or type outside the reference's values is
// INVALID_INPUT, as is a bad cursor or limit. A page costs the index read
// of the narrowest filter (TransactionFilter.Query), not a table scan.
func (ts Transactions) List(ctx context.Context, f TransactionFilter, p engine.ListParams) (engine.Page[Transaction], error) {
	return engine.Run(ctx, ts.e, listTransactions, transactionQuery{f, p})
}

// transactionQuery is a page of transactions: the filter and the page.
type transactionQuery struct {
	f TransactionFilter
	p engine.ListParams
}

// listTransactions is Transactions.List's operation: the filter's values
// are checked, then one read of the narrowest index.
var listTransactions = engine.Op[transactionQuery, engine.Page[Transaction], struct{}]{Area: "quotes", Name: "Transactions.List", Access: engine.Read,
	Validate: func(in *transactionQuery) error {
		var fe validate.Errors
		fe.Enum("status", string(in.f.Status), "CREATED", "PENDING", "PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "REJECTED", "FAILED", "REFUNDED", "EXPIRED",
			"AUTHORIZED", "PARTIALLY_SETTLED", "SETTLED", "EXCEPTION")
		fe.Enum("type", string(in.f.Type), string(TxIncoming), string(TxOutgoing), string(TxCard))
		return engine.Invalid(fe.Err())
	},
	Decide: func(t *engine.Txn, in *transactionQuery, _ *struct{}) (engine.Page[Transaction], error) {
		return engine.List(t, in.f.Query(), in.p)
	}}

// ListAll walks every page of List from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (ts Transactions) ListAll(ctx context.Context, f TransactionFilter, p engine.ListParams) iter.Seq2[Transaction, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Transaction], error) {
		return ts.List(ctx, f, p)
	})
}

// ConfirmReceipt records when the receipt was delivered (default now):
// TRANSACTION_NOT_FOUND for an unknown id. It changes no status and emits
// no event; a repeat with the same time is idempotent, a later one
// overwrites the time.
func (ts Transactions) ConfirmReceipt(ctx context.Context, id string, at time.Time) (*Transaction, error) {
	return engine.Run(ctx, ts.e, confirmReceipt, receipt{id, at})
}

// receipt is a delivered receipt: the transaction and when (zero: now).
type receipt struct {
	id string
	at time.Time
}

// confirmReceipt is Transactions.ConfirmReceipt's operation; its
// idempotency record fingerprints [id, at], as before it was declared.
var confirmReceipt = engine.Op[receipt, *Transaction, struct{}]{Area: "quotes", Name: "Transactions.ConfirmReceipt",
	Fingerprint: func(in *receipt) any { return []any{in.id, in.at} },
	Decide: func(t *engine.Txn, in *receipt, _ *struct{}) (*Transaction, error) {
		tx, err := GetTransaction(t, in.id)
		if err != nil {
			return nil, err
		}
		at := in.at
		if at.IsZero() {
			at = t.Now
		}
		tx.ReceiptDeliveryConfirmedAt = &at
		if err := SaveTransaction(t, tx, ""); err != nil {
			return nil, err
		}
		return tx, nil
	}}

// Transactions lists and reads transactions and moves money between a
// customer's own accounts (transfer in and out), with incoming-payment
// decisions, receipts and cancellation. Reach it as eng.Transactions
// (payments.Transactions).
type Transactions struct{ e *engine.Handle }

// NewTransactions returns the Transactions group of h.
func NewTransactions(h *engine.Handle) Transactions { return Transactions{h} }

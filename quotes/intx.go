package quotes

import (
	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/railside"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/validate"
)

// The functions other areas call inside their own transactions
// (ARCHITECTURE.md: cross-area calls take the kernel's transaction). Each
// reads or writes this area's records the way its own operations do.

// Get loads quote id in t for an operation that may change it: a copy of
// its own (QUOTE_NOT_FOUND when absent). The status read is remembered, so
// that saving the quote later in t is checked against the state machine
// from that status. A quote created earlier in t is read from its draft.
func Get(t *engine.Txn, id string) (*Record, error) {
	var q *Record
	if d := quoteState.Of(t).drafts.quote; d != nil && d.ID == id {
		var err error
		if q, err = quoteState.Of(t).drafts.quoteCopy(); err != nil {
			return nil, err
		}
	} else {
		b, err := t.Get(tableQuotes, id)
		if err != nil {
			return nil, engine.NotFound(err, engine.CodeQuoteNotFound, "quote", id)
		}
		if q, err = quotesSlot.Of(t.Handle).quotes.Load(id, b, (*Record).Clone); err != nil {
			return nil, err
		}
	}
	readStatus(t, id, string(q.Status))
	return q, nil
}

// ExpireIfDue ends a lapsed quote with its transaction: a PENDING one
// EXPIRED (OUTGOING_PAYMENT.EXPIRED); one whose SCA challenge was never
// satisfied FAILED with SCA_NOT_COMPLETED (OUTGOING_PAYMENT.FAILED). It
// reports whether q lapsed and leaves the answer to the
// caller, which usually keeps a refusal (engine.Keep) so that the
// expiry commits. q must have been read with Get in t. No money moves:
// a waiting quote holds none.
func ExpireIfDue(t *engine.Txn, q *Record) (bool, error) {
	if !q.Lapsed(t.Now) {
		return false, nil
	}
	if q.Status == PendingAuthorization {
		q.Status, q.ScaChallenge, q.ScaCodeHash, q.HeldInstructions = Failed, nil, "", nil
		if err := saveQuote(t, q); err != nil {
			return true, err
		}
		tx, err := GetTransaction(t, q.TransactionID)
		if err != nil {
			return true, err
		}
		tx.Status, tx.FailureReason = TxFailed, scaNotCompleted
		return true, SaveTransaction(t, tx, EventOutgoingPaymentFailed)
	}
	q.Status = Expired
	if err := saveQuote(t, q); err != nil {
		return true, err
	}
	tx, err := GetTransaction(t, q.TransactionID)
	if err != nil {
		return true, err
	}
	tx.Status, tx.FailureReason = TxExpired, "QUOTE_EXPIRED"
	return true, SaveTransaction(t, tx, EventOutgoingPaymentExpired)
}

// Execute moves the money to held and starts delivery, in the caller's
// transaction (the caller checked source type and expiry): CONFLICT for a
// quote not PENDING (a quote executes once), WALLET_SIGNATURE_MISSING for
// an unsigned wallet quote, the sender's refusals (SENDER_NOT_ACCEPTED,
// CUSTOMER_DELETED, END_USER_TERMS_NOT_ACCEPTED), INSUFFICIENT_FUNDS when
// the source cannot cover the sending total, and a pull source's refusals.
// On an error the caller returns it from its transaction function, which
// rolls back whatever part of the execution t holds.
func Execute(t *engine.Txn, q *Record) error {
	if q.Status != Pending {
		return engine.Errorf(engine.CodeConflict, "quote %s is %s; a quote executes once", q.ID, q.Status)
	}
	if q.PayloadToSign != "" && !q.WalletSigned {
		return engine.Errorf(engine.CodeWalletSignatureMissing, "quote %s is paid from an embedded wallet: execute it with the Service-Wallet-Signature header over its payloadToSign", q.ID)
	}
	if q.CustomerID != "" {
		if _, err := customers.Sending(t, q.CustomerID); err != nil {
			return err
		}
	}
	if q.SourceExternal {
		return executePull(t, q)
	}
	if err := engine.PostEntry(t, q.TransactionID, accounts.Transfer(q.Source.AccountID, holdAccount(q), q.SendingCurrency.Code, q.TotalSendingAmount)); err != nil {
		return err
	}
	if err := CreditEvent(t, q.Source.AccountID); err != nil { // the available balance dropped
		return err
	}
	return startDelivery(t, q)
}

// CreditEvent emits INTERNAL_ACCOUNT.BALANCE_UPDATED for an internal account
// whose balance changed (credited, debited or held), in the caller's
// transaction, with the account as the API shows it after the change.
// Package cards calls it after posting to a funding account.
// ACCOUNT_NOT_FOUND for an id that is no internal account.
func CreditEvent(t *engine.Txn, id string) error {
	a, err := accounts.SharedInternal(t, id)
	if err != nil {
		return err
	}
	return t.EmitAppended(accounts.EventInternalAccountBalanceUpdated, 1024, func(b []byte) ([]byte, error) { return accounts.AppendView(t, b, a) })
}

// InsertTransaction stores a new transaction in the caller's transaction,
// filling platformCustomerId from its customer (left empty when the
// customer cannot be read). It emits nothing: the caller announces the
// transaction with SaveTransaction (or, for a card transaction, its own
// event). An id already stored is CONFLICT.
func InsertTransaction(t *engine.Txn, tx *Transaction) error {
	if tx.CustomerID != "" && tx.PlatformCustomerID == "" {
		if c, err := customers.Get(t, tx.CustomerID); err == nil {
			tx.PlatformCustomerID = c.PlatformCustomerID
		}
	}
	b, err := engine.EncodeRecord(tx)
	if err != nil {
		return err
	}
	if err := engine.InsertIndexed(t, tableTransactions, tx.ID, tx, b); err != nil {
		return err
	}
	rememberTx(t, tx, b, false)
	return nil
}

// GetTransaction loads transaction id in t (TRANSACTION_NOT_FOUND when
// absent) as a copy the caller may change and pass to SaveTransaction. The
// status read is remembered, so that saving it later in t is checked
// against the state machine from that status; the transaction of a quote
// created earlier in t is read from its draft. A card transaction's Card is
// shared with other readers and must not be changed in place.
func GetTransaction(t *engine.Txn, id string) (*Transaction, error) {
	if d := quoteState.Of(t).drafts.tx; d != nil && d.ID == id {
		tx := d.Clone()
		readStatus(t, id, string(tx.Status))
		return tx, nil
	}
	b, err := t.Get(tableTransactions, id)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeTransactionNotFound, "transaction", id)
	}
	tx, err := quotesSlot.Of(t.Handle).txs.Load(id, b, (*Transaction).Clone)
	if err != nil {
		return nil, err
	}
	readStatus(t, id, string(tx.Status))
	return tx, nil
}

// SaveTransaction stores tx, refusing a status change the transaction state
// machine does not allow (TxStatus.Check), and emits event (none when it is
// ""), one of the payment events of tx's type (EventOutgoingPaymentCompleted,
// EventIncomingPaymentFailed, ...), with the transaction as stored. A
// refused move or an event of the other type is a plain error
// (INTERNAL_ERROR), not a client's refusal: it means a code path skipped a
// check, and rolls the operation back.
func SaveTransaction(t *engine.Txn, tx *Transaction, event engine.EventType) error {
	if err := advanceTx(t, tx); err != nil {
		return err
	}
	b, err := engine.EncodeRecord(tx)
	if err != nil {
		return err
	}
	if event != "" {
		if err := checkPaymentEvent(tx, event); err != nil {
			return err
		}
		if err := t.EmitEncoded(event, b); err != nil {
			return err
		}
	}
	held, err := quoteState.Of(t).drafts.store(t, tableTransactions, tx.ID, tx, b)
	if err == nil && !held {
		rememberTx(t, tx, b, false)
	}
	return err
}

// TransferIn is Transactions.TransferIn inside the caller's transaction,
// for package agents; agentID names the agent making it ("" for the
// platform). The pull is handed to the rail after commit. It checks the
// accounts and the customer but not the amount: the caller validates it
// (1..accounts.MaxSandboxFunding) before its transaction.
func TransferIn(t *engine.Txn, sourceID, destinationID string, amount int64, agentID string) (*Transaction, error) {
	var fe validate.Errors
	ext, err := accounts.External(t, sourceID)
	if err != nil {
		return nil, err
	}
	ia, err := accounts.Internal(t, destinationID)
	if err != nil {
		return nil, err
	}
	if ext.CustomerID != ia.CustomerID || ext.Currency != ia.Currency {
		fe.Add("destination.accountId", nil, "the internal account must belong to the external account's owner and hold %s", ext.Currency)
		return nil, engine.Invalid(fe)
	}
	if ia.CustomerID != "" {
		if _, err := customers.Transacting(t, ia.CustomerID); err != nil {
			return nil, err
		}
	}
	id := t.NewID("Transaction")
	recv := accounts.AmountOf(ia.Currency, amount)
	tx := &Transaction{ID: id, Status: TxPending, Type: TxIncoming, Direction: TxCredit, CustomerID: ia.CustomerID, ReceivedAmount: &recv,
		Source:      TxParty{SourceType: SourceAccount, AccountID: ext.ID, Currency: ia.Currency},
		Destination: TxParty{DestinationType: DestinationAccount, AccountID: ia.ID, Currency: ia.Currency}, CreatedAt: t.Now, UpdatedAt: t.Now, AgentID: agentID}
	if err := InsertTransaction(t, tx); err != nil {
		return nil, err
	}
	if err := SaveTransaction(t, tx, EventIncomingPaymentPending); err != nil {
		return nil, err
	}
	return tx, railside.IntendPull(t, rails.PullRequest{TransactionID: id, From: ext, Currency: ia.Currency, Amount: amount})
}

// SaveCardTransaction stores, inside t, the card transaction x that the
// cards area changed, in the transactions table as a Transaction; the
// cards area emits its event.
func SaveCardTransaction(t *engine.Txn, x *CardTransaction) error {
	return engine.PutJSON(t, tableTransactions, x.ID, x.AsTransaction())
}

// Package records holds the records of the quotes area: a quote as the API
// shows it (Quote) and as it is stored (Record), a transaction
// (Transaction, with its card variant CardTransaction), the words they
// carry (SourceType, TxType, PaymentRail, ...), the quote and transaction
// state machines (Status.Check, TxStatus.Check) and their hand-written
// JSON codecs.
//
// It is a leaf: it reads no store and runs no operation. Package quotes,
// which stores, moves and settles these records, and the areas that read
// them (cards, wallets, agents) share one vocabulary through it. Package
// quotes re-exports every name as it was (quotes.Quote is Quote,
// quotes.Record is Record, quotes.TxPending is TxPending, ...), and so does
// the root (payments.Quote, payments.Transaction, ...).
//
//	q := &records.Record{Quote: records.Quote{ID: "Quote:1", Status: records.Pending}}
//	if err := q.Status.Check(records.Processing); err != nil {
//		return err // a move the quote state machine does not allow
//	}
package records

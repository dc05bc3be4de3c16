package cards

import (
	"fmt"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes"
)

// The webhook events of package cards (reference WebhookType).
const (
	// Card events (reference webhooks card-state-change and
	// card-funding-source-change); the data is the Card (CardOf).
	EventCardStateChange         engine.EventType = "CARD.STATE_CHANGE"
	EventCardFundingSourceChange engine.EventType = "CARD.FUNDING_SOURCE_CHANGE"

	// A card transaction changed, named by its new status; the data is
	// the quotes.CardTransaction (CardTransactionOf).
	EventCardTransactionAuthorized       engine.EventType = "CARD_TRANSACTION.AUTHORIZED"
	EventCardTransactionPartiallySettled engine.EventType = "CARD_TRANSACTION.PARTIALLY_SETTLED"
	EventCardTransactionSettled          engine.EventType = "CARD_TRANSACTION.SETTLED"
	EventCardTransactionRefunded         engine.EventType = "CARD_TRANSACTION.REFUNDED"
	EventCardTransactionException        engine.EventType = "CARD_TRANSACTION.EXCEPTION"
)

// EventCardTransaction prefixes the card-transaction events:
// CARD_TRANSACTION.<status> on every change of a card transaction. The
// engine emits the constants above; this one stays for programs that
// matched on the prefix.
const EventCardTransaction engine.EventType = "CARD_TRANSACTION."

// cardTxEvents are the CARD_TRANSACTION.* events by status.
var cardTxEvents = map[TxStatus]engine.EventType{
	Authorized:       EventCardTransactionAuthorized,
	PartiallySettled: EventCardTransactionPartiallySettled,
	Settled:          EventCardTransactionSettled,
	Refunded:         EventCardTransactionRefunded,
	Exception:        EventCardTransactionException,
}

// emitCardTx emits the CARD_TRANSACTION.* event of x's status. A status
// without one is a code path's mistake (INTERNAL_ERROR).
func emitCardTx(t *engine.Txn, x *quotes.CardTransaction) error {
	ev, ok := cardTxEvents[x.Status]
	if !ok {
		return fmt.Errorf("cards: card transaction %s has status %q, which no event announces", x.ID, x.Status)
	}
	return t.Emit(ev, x)
}

// CardOf decodes the card a CARD.* event carries; another event is
// INVALID_INPUT.
func CardOf(ev engine.Event) (*Card, error) {
	return engine.DataOf[Card](ev, EventCardStateChange, EventCardFundingSourceChange)
}

// CardTransactionOf decodes the card transaction a CARD_TRANSACTION.* event
// carries; another event is INVALID_INPUT.
func CardTransactionOf(ev engine.Event) (*quotes.CardTransaction, error) {
	return engine.DataOf[quotes.CardTransaction](ev, EventCardTransactionAuthorized, EventCardTransactionPartiallySettled,
		EventCardTransactionSettled, EventCardTransactionRefunded, EventCardTransactionException)
}

package records

import (
	"time"

	"github.com/paygrid/payments/accounts"
)

// The transactions' card variant: a card transaction is listed, filtered
// and read with the other transactions (Transaction.Card), so its record
// belongs to the transactions' vocabulary; the cards area runs the card
// network that writes it.

// CardMerchant is the merchant of a card transaction (reference
// CardMerchant).
type CardMerchant struct {
	Descriptor string `json:"descriptor"`
	MCC        string `json:"mcc,omitempty"`
	Country    string `json:"country,omitempty"`
}

// CardTransaction is a card authorization and everything that reconciles
// against it (reference CardTransaction). It is listed with the other
// transactions (Transaction.Card) with type CARD.
type CardTransaction struct {
	Type                   TxType                   `json:"type"`
	ID                     string                   `json:"id"`
	CardID                 string                   `json:"cardId"`
	CustomerID             string                   `json:"customerId"`
	PlatformCustomerID     string                   `json:"platformCustomerId"`
	IssuerTransactionToken string                   `json:"issuerTransactionToken,omitempty"`
	Status                 CardTxStatus             `json:"status"`
	Direction              TxDirection              `json:"direction"`
	Merchant               CardMerchant             `json:"merchant"`
	AuthorizedAmount       accounts.CurrencyAmount  `json:"authorizedAmount"`
	SettledAmount          *accounts.CurrencyAmount `json:"settledAmount,omitempty"`
	RefundedAmount         *accounts.CurrencyAmount `json:"refundedAmount,omitempty"`
	AccountID              string                   `json:"accountId"`
	PullSummary            CardPullSummary          `json:"pullSummary"`
	RefundSummary          CardSummary              `json:"refundSummary"`
	SettlementSummary      CardSummary              `json:"settlementSummary"`
	AuthorizedAt           time.Time                `json:"authorizedAt"`
	LastEventAt            *time.Time               `json:"lastEventAt,omitempty"`
	CreatedAt              time.Time                `json:"createdAt"`
	UpdatedAt              time.Time                `json:"updatedAt"`
}

// CardPullSummary counts the pulls from the funding source (reference
// CardPullSummary).
type CardPullSummary struct {
	Count        int   `json:"count"`
	TotalAmount  int64 `json:"totalAmount"`
	PendingCount int   `json:"pendingCount"`
}

// CardSummary counts refunds or settlements (reference CardRefundSummary,
// CardSettlementSummary).
type CardSummary struct {
	Count       int   `json:"count"`
	TotalAmount int64 `json:"totalAmount"`
}

// AsTransaction is the Transaction that lists x: its id, status,
// direction, customers, funding account (as Source.AccountID) and times,
// which the transaction indexes and filters read, with x itself as Card.
//
// A card status is not one of the transaction state machine's (txMoves), so
// package cards stores card transactions with engine.PutJSON after deciding
// their moves with its own rules (cards.Clear, cards.Return, ...), not
// through quotes.SaveTransaction.
func (x *CardTransaction) AsTransaction() *Transaction {
	return &Transaction{ID: x.ID, Status: TxStatus(x.Status), Type: TxCard, Direction: x.Direction,
		Source: TxParty{AccountID: x.AccountID}, CustomerID: x.CustomerID, PlatformCustomerID: x.PlatformCustomerID,
		CreatedAt: x.CreatedAt, UpdatedAt: x.UpdatedAt, Card: x}
}

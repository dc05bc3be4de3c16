package payments

import "time"

// TableLookups holds receiver lookups by id.
const TableLookups = "lookups"

// PayerDataField is one piece of sender information a receiver requires.
type PayerDataField struct {
	Name      string `json:"name"`
	Mandatory bool   `json:"mandatory"`
}

// LookupCurrency is a currency a looked-up receiver accepts.
type LookupCurrency struct {
	Currency              string  `json:"currency"`
	EstimatedExchangeRate float64 `json:"estimatedExchangeRate"`
	Min                   int64   `json:"min"`
	Max                   int64   `json:"max"`
}

// Lookup is the result of a receiver lookup (GET /receiver/uma/{address} or
// /receiver/external-account/{id}). A quote to a UMA address names it by
// lookupId and must supply every mandatory RequiredPayerDataFields entry in
// senderCustomerInfo. Exactly one of ReceiverUmaAddress and AccountID is set.
type Lookup struct {
	ID                      string           `json:"lookupId"`
	ReceiverUmaAddress      string           `json:"receiverUmaAddress,omitempty"`
	AccountID               string           `json:"accountId,omitempty"`
	CustomerID              string           `json:"customerId,omitempty"` // the sender it was made for, if any
	SupportedCurrencies     []LookupCurrency `json:"supportedCurrencies"`
	RequiredPayerDataFields []PayerDataField `json:"requiredPayerDataFields"`
	CreatedAt               time.Time        `json:"createdAt"`
	ExpiresAt               time.Time        `json:"expiresAt"`
}

// lookup loads a lookup: LOOKUP_REQUEST_NOT_FOUND when absent.
func (t *txn) lookup(id string) (*Lookup, error) {
	var l Lookup
	if err := getJSON(t, TableLookups, id, &l); err != nil {
		return nil, notFound(err, CodeLookupRequestNotFound, "lookup", id)
	}
	return &l, nil
}

package records

import (
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/money"
)

// Source is where a quote's money comes from: an internal account or an
// external account that supports direct pull (sourceType ACCOUNT, named by
// AccountID), or a payment made when the quote is funded (REALTIME_FUNDING,
// in Currency, by CustomerID; CryptoNetwork for a USDC or USDT payment).
// CustomerID on an ACCOUNT source names the customer a platform (FBO)
// account pays for.
type Source struct {
	SourceType    SourceType `json:"sourceType"`
	AccountID     string     `json:"accountId,omitempty"`
	CustomerID    string     `json:"customerId,omitempty"`
	Currency      string     `json:"currency,omitempty"`
	CryptoNetwork string     `json:"cryptoNetwork,omitempty"`
}

// Destination is where it goes: an internal or external account
// (destinationType ACCOUNT), optionally on a PaymentRail of the external
// account, or a UMA address (UMA_ADDRESS) resolved by the request's lookup
// and paid in Currency (default: the first currency the lookup lists).
type Destination struct {
	DestinationType DestinationType `json:"destinationType"`
	AccountID       string          `json:"accountId,omitempty"`
	PaymentRail     PaymentRail     `json:"paymentRail,omitempty"`
	UmaAddress      string          `json:"umaAddress,omitempty"`
	Currency        string          `json:"currency,omitempty"`
}

// RateDetails break the rate and fees down (reference OutgoingRateDetails,
// with the Service renames).
type RateDetails struct {
	CounterpartyMultiplier      float64    `json:"counterpartyMultiplier"`
	CounterpartyFixedFee        int64      `json:"counterpartyFixedFee"`
	ServiceApiMultiplier        money.Rate `json:"serviceApiMultiplier"`
	ServiceApiFixedFee          int64      `json:"serviceApiFixedFee"`
	ServiceApiVariableFeeRate   float64    `json:"serviceApiVariableFeeRate"`
	ServiceApiVariableFeeAmount int64      `json:"serviceApiVariableFeeAmount"`
}

// Quote is a locked rate and fee for one transfer (createQuote), as the API
// shows it. Its figures never change once priced: execution moves exactly
// TotalSendingAmount and the receiver gets exactly TotalReceivingAmount.
type Quote struct {
	ID                   string                         `json:"id"`
	Status               Status                         `json:"status"`
	CreatedAt            time.Time                      `json:"createdAt"`
	ExpiresAt            time.Time                      `json:"expiresAt"`
	Source               Source                         `json:"source"`
	Destination          Destination                    `json:"destination"`
	SendingCurrency      accounts.CurrencyInfo          `json:"sendingCurrency"`
	ReceivingCurrency    accounts.CurrencyInfo          `json:"receivingCurrency"`
	TotalSendingAmount   int64                          `json:"totalSendingAmount"`
	TotalReceivingAmount int64                          `json:"totalReceivingAmount"`
	ExchangeRate         money.Rate                     `json:"exchangeRate"`
	FeesIncluded         int64                          `json:"feesIncluded"`
	PlatformFeesIncluded int64                          `json:"platformFeesIncluded"`
	PaymentInstructions  []accounts.PaymentInstructions `json:"paymentInstructions,omitempty"`
	TransactionID        string                         `json:"transactionId"`
	RateDetails          *RateDetails                   `json:"rateDetails,omitempty"`
	PurposeOfPayment     string                         `json:"purposeOfPayment,omitempty"`
	ScaChallenge         *accounts.ScaChallenge         `json:"scaChallenge,omitempty"`
}

// AwaitsAuthorization reports whether the quote waits for its SCA
// challenge to be answered (PENDING_AUTHORIZATION): the HTTP API answers
// 202 instead of 201.
func (q *Quote) AwaitsAuthorization() bool { return q.Status == PendingAuthorization }

// Record is a Quote as stored, with what execution needs: the parties,
// the rail, the lifecycle flags and the secrets of an SCA challenge (a
// hash, never the code). Other areas read it through quotes.Get.
type Record struct {
	Quote
	CustomerID            string                         `json:"customerId,omitempty"` // the sender, "" for the platform
	PlatformCustomerID    string                         `json:"platformCustomerId,omitempty"`
	ReceiverCustomerID    string                         `json:"receiverCustomerId,omitempty"`
	DestinationInternal   bool                           `json:"destinationInternal,omitempty"`
	SourceExternal        bool                           `json:"sourceExternal,omitempty"` // funded by a direct pull through the rail
	Transfer              bool                           `json:"transfer,omitempty"`       // made by TransferOut
	AgentID               string                         `json:"agentId,omitempty"`        // the agent that created it
	PendingSent           bool                           `json:"pendingSent,omitempty"`    // OUTGOING_PAYMENT.PENDING already emitted
	Collected             bool                           `json:"collected,omitempty"`      // a direct pull's money arrived
	ServiceFees           int64                          `json:"serviceFees"`
	Description           string                         `json:"description,omitempty"`
	RemittanceInformation string                         `json:"remittanceInformation,omitempty"`
	Rail                  string                         `json:"rail"`
	ScaCodeHash           string                         `json:"scaCodeHash,omitempty"`
	ScaNonce              []byte                         `json:"scaNonce,omitempty"` // a PASSKEY challenge's WebAuthn challenge
	ScaSends              []time.Time                    `json:"scaSends,omitempty"` // when an SMS_OTP challenge's code was sent
	HeldInstructions      []accounts.PaymentInstructions `json:"heldInstructions,omitempty"`
	PayloadToSign         string                         `json:"payloadToSign,omitempty"` // paid from an embedded wallet (package wallets)
	WalletSigned          bool                           `json:"walletSigned,omitempty"`  // the stamp over PayloadToSign verified
}

// Cloneable reports whether Clone copies q completely: it has no member
// that Clone would share (instructions, SCA state).
func (q *Record) Cloneable() bool {
	return len(q.PaymentInstructions) == 0 && q.ScaChallenge == nil && len(q.ScaNonce) == 0 &&
		len(q.ScaSends) == 0 && len(q.HeldInstructions) == 0
}

// Clone returns a copy of a Cloneable quote that shares nothing a holder
// could change through (TestQuoteCloneSharesNothing): the copies package
// quotes keeps of the records it stored lately.
func (q *Record) Clone() *Record {
	blk := &recordClone{q: *q} // the copy and its rate details in one allocation
	blk.q.RateDetails = copyInto(&blk.rate, q.RateDetails)
	return &blk.q
}

// recordClone is a Record's clone with its RateDetails.
type recordClone struct {
	q    Record
	rate RateDetails
}

// Lapsed reports whether a quote still waiting for execution or for
// authorization can no longer go on at now: past its expiry, or (waiting
// for authorization) past its SCA challenge's expiry.
func (q *Record) Lapsed(now time.Time) bool {
	switch q.Status {
	case Pending:
		return now.After(q.ExpiresAt)
	case PendingAuthorization:
		return now.After(q.ExpiresAt) || q.ScaChallenge != nil && now.After(q.ScaChallenge.ExpiresAt)
	}
	return false
}

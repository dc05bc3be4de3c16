package quotes

import (
	"context"
	"strings"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
)

// tableQuotes holds quotes by id.
const tableQuotes = "quotes"

// FeeOverride replaces the platform's configured fees on one quote (USD
// sources only; the fixed fee in the source currency).
type FeeOverride struct {
	PlatformFixedFee       platform.FixedFee `json:"platformFixedFee"`
	PlatformVariableFeeBps *int64            `json:"platformVariableFeeBps"`
}

// Request is the body of POST /quotes (payments.QuoteRequest). checkShape
// validates what needs no store; pricing the rest. LockedCurrencyAmount is
// in minor units of the locked side's currency, 1..MaxAmount.
type Request struct {
	LookupID              string         `json:"lookupId,omitempty"`
	Source                Source         `json:"source"`
	Destination           Destination    `json:"destination"`
	LockedCurrencySide    LockedSide     `json:"lockedCurrencySide"`
	LockedCurrencyAmount  int64          `json:"lockedCurrencyAmount"`
	ImmediatelyExecute    bool           `json:"immediatelyExecute,omitempty"`
	Description           string         `json:"description,omitempty"`
	RemittanceInformation string         `json:"remittanceInformation,omitempty"`
	PurposeOfPayment      string         `json:"purposeOfPayment,omitempty"`
	PlatformFeeOverride   *FeeOverride   `json:"platformFeeOverride,omitempty"`
	ScaFactor             string         `json:"scaFactor,omitempty"`
	SenderCustomerInfo    map[string]any `json:"senderCustomerInfo,omitempty"`

	sca customers.SCADraw // the secrets of an SCA challenge, drawn before pricing
	// fetched is the rate Create fetched outside the transaction when
	// pricing needed one not cached (pricingRate).
	fetched *rateNeeded
	// AgentID names the agent creating the quote on its customer's behalf
	// (set by eng.Agents, never decoded from a request).
	AgentID string `json:"-"`
}

// Limits on a quote's free-text members, in bytes.
const (
	MaxDescription           = 1024
	MaxRemittanceInformation = 80
)

// PurposesOfPayment are the API's purposeOfPayment values; chinaPurposes
// the ones a business payout to China may use.
var (
	PurposesOfPayment = []string{"GIFT", "SELF", "GOODS_OR_SERVICES", "EDUCATION", "HEALTH_OR_MEDICAL", "REAL_ESTATE_PURCHASE",
		"TAX_PAYMENT", "LOAN_PAYMENT", "UTILITY_BILL", "DONATION", "TRAVEL", "FAMILY_SUPPORT", "SALARY_PAYMENT",
		"EXPORTED_GOODS_PREPAYMENT", "EXPORTED_GOODS_POSTPAYMENT", "SERVICE_CHARGES", "OFFICE_EXPENSES", "DELIVERY_FEES",
		"HOTEL_ACCOMMODATION", "COMMISSION_ON_GOODS", "COMMISSION_ON_SERVICES", "ACCOUNTING_SERVICES", "EXHIBITION_SERVICES", "OTHER"}
	chinaPurposes = []string{"EXPORTED_GOODS_PREPAYMENT", "EXPORTED_GOODS_POSTPAYMENT", "COMMISSION_ON_GOODS", "COMMISSION_ON_SERVICES",
		"ACCOUNTING_SERVICES", "EXHIBITION_SERVICES", "OFFICE_EXPENSES", "DELIVERY_FEES", "TRAVEL", "HOTEL_ACCOMMODATION"}
)

// checkShape validates the request members that need no store.
func (req *Request) checkShape(fe *validate.Errors) {
	s, d := req.Source, req.Destination
	switch s.SourceType {
	case SourceAccount:
		fe.Required("source.accountId", s.AccountID)
	case SourceRealtimeFunding:
		if fe.Required("source.currency", s.Currency) && (s.Currency == "USDC" || s.Currency == "USDT") {
			fe.Required("source.cryptoNetwork", s.CryptoNetwork)
		}
		if req.ImmediatelyExecute {
			fe.Add("immediatelyExecute", nil, "a real-time funded quote executes when its funds arrive; immediatelyExecute needs an account source")
		}
	default:
		fe.Add("source.sourceType", &validate.Constraint{Enum: []string{string(SourceAccount), string(SourceRealtimeFunding)}}, "source.sourceType must be ACCOUNT or REALTIME_FUNDING")
	}
	switch d.DestinationType {
	case DestinationAccount:
		fe.Required("destination.accountId", d.AccountID)
		fe.Enum("destination.paymentRail", string(d.PaymentRail), PaymentRails...)
	case DestinationUMAAddress:
		fe.Required("destination.umaAddress", d.UmaAddress)
		fe.Required("lookupId", req.LookupID)
	default:
		fe.Add("destination.destinationType", &validate.Constraint{Enum: []string{string(DestinationAccount), string(DestinationUMAAddress)}}, "destination.destinationType must be ACCOUNT or UMA_ADDRESS")
	}
	if fe.Required("lockedCurrencySide", string(req.LockedCurrencySide)) {
		fe.Enum("lockedCurrencySide", string(req.LockedCurrencySide), string(Sending), string(Receiving))
	}
	if req.LockedCurrencyAmount < 1 || req.LockedCurrencyAmount > money.MaxAmount {
		fe.Add("lockedCurrencyAmount", nil, "lockedCurrencyAmount must be between 1 and %d", money.MaxAmount)
	}
	fe.MaxLen("description", req.Description, MaxDescription)
	fe.MaxLen("remittanceInformation", req.RemittanceInformation, MaxRemittanceInformation)
	fe.Enum("purposeOfPayment", req.PurposeOfPayment, PurposesOfPayment...)
	if fe.Enum("scaFactor", req.ScaFactor, "SMS_OTP", "PASSKEY", "TOTP") && req.ScaFactor == "TOTP" {
		fe.Add("scaFactor", &validate.Constraint{Enum: []string{"SMS_OTP", "PASSKEY"}}, "scaFactor TOTP is not accepted; use SMS_OTP or PASSKEY")
	}
	if o := req.PlatformFeeOverride; o != nil {
		if o.PlatformVariableFeeBps == nil || *o.PlatformVariableFeeBps < 0 || *o.PlatformVariableFeeBps > 10_000 {
			fe.Add("platformFeeOverride.platformVariableFeeBps", nil, "platformVariableFeeBps must be between 0 and 10000")
		}
		if o.PlatformFixedFee.Amount < 0 {
			fe.Add("platformFeeOverride.platformFixedFee.amount", nil, "the fixed fee must not be negative")
		}
	}
}

// Create prices a transfer and stores the quote with its PENDING
// transaction. With ImmediatelyExecute it also executes it (see
// Quotes.Execute: a customer in an SCA region gets a challenge instead).
// Field problems are INVALID_INPUT; unsupported currencies
// INVALID_CURRENCY; amounts below the currency's minimum AMOUNT_OUT_OF_RANGE
// and above its maximum TRANSACTION_SIZE_LIMIT_EXCEEDED; paying oneself
// SELF_PAYMENT; a customer without accepted end-user terms
// END_USER_TERMS_NOT_ACCEPTED; a sending customer whose kycStatus or
// kybStatus is REJECTED or HOLD SENDER_NOT_ACCEPTED (it may still receive).
// Parties that do not resolve are ACCOUNT_NOT_FOUND, CUSTOMER_NOT_FOUND or
// CUSTOMER_DELETED, an unknown or expired lookup LOOKUP_REQUEST_NOT_FOUND;
// an external destination that cannot receive INVALID_BANK_ACCOUNT,
// BANK_ACCOUNT_VALIDATION_PENDING or EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED;
// a pair without a rate QUOTE_RATE_UNAVAILABLE. With ImmediatelyExecute the
// codes of Execute apply too (INSUFFICIENT_FUNDS, nothing stored).
//
// The quote and its transaction are stored in one transaction, with the
// OUTGOING_PAYMENT events of an SCA challenge or an immediate execution.
func (qs Service) Create(ctx context.Context, req Request) (*Quote, error) {
	return engine.Run(ctx, qs.e, createQuote, req)
}

// createQuote is Service.Create's operation.
var createQuote = createOp(false, func(_ *engine.Txn, q *Record) (*Quote, error) { return &q.Quote, nil })

// Create is Service.Create for the areas that create quotes on someone's
// behalf (Transactions.TransferOut, package agents): transfer marks the
// quotes of TransferOut, and answer gives the operation's answer from the
// committed quote (inside the transaction, so that an idempotent retry
// replays it; an agent answers with its action record). It runs one whole
// operation on e, with e's idempotency key, and returns Service.Create's
// codes.
func Create[T any](ctx context.Context, e *engine.Handle, req Request, transfer bool, answer func(*engine.Txn, *Record) (T, error)) (T, error) {
	return engine.Run(ctx, e, createOp(transfer, answer), req)
}

// createOp declares the creation of a quote: the request's shape is
// checked, the secrets of a challenge drawn and the rate fetched outside
// the transaction, the quote priced (Read: it only reads) and stored with
// its transaction (Decide), executed at once when asked.
func createOp[T any](transfer bool, answer func(*engine.Txn, *Record) (T, error)) engine.Op[Request, T, creation] {
	return engine.Op[Request, T, creation]{Area: "quotes", Name: "Create",
		Validate: func(req *Request) error {
			var fe validate.Errors
			req.checkShape(&fe)
			return engine.Invalid(fe.Err())
		},
		Prefetch:  fetchForQuote,
		Read:      func(t *engine.Txn, req *Request, c *creation) error { return c.price(t, req, transfer) },
		Reuse:     (*creation).reuse,
		Contended: func(req *Request, c *creation) []engine.RecordKey { return c.contended(req) },
		Decide: func(t *engine.Txn, req *Request, c *creation) (out T, err error) {
			if err := c.store(t, req); err != nil {
				return out, err
			}
			return answer(t, c.q)
		},
		Answer: func(e *engine.Handle, req *Request, c *creation, out T, err error) (T, error) {
			c.remember(e, req, err)
			return out, err
		},
	}
}

// newDrafts returns the drafts of the quote q priced for req (Create):
// untouched copies of the quote and of its transaction, for one run of the
// transaction that stores them (creation.reuse keeps them for more). A
// quote not executed at once is stored as created, so it is encoded here,
// and is its own draft; one executed at once is stored as execution leaves
// it, so its draft is a copy, and encoding it as created would be wasted
// (a quote whose maps clone does not copy is encoded all the same, and
// reruns decode it).
func newDrafts(q *Record, req *Request, transfer bool) (drafts, error) {
	q.Transfer, q.AgentID = transfer, req.AgentID
	tx := outgoingTransaction(q, q.CreatedAt)
	tx.AgentID = req.AgentID
	tx.PlatformCustomerID = q.PlatformCustomerID
	d := drafts{quote: q, tx: tx}
	if req.ImmediatelyExecute {
		// Execution changes the quote: the draft stays as created.
		d.quote = q.Clone()
	}
	if !req.ImmediatelyExecute || !q.Cloneable() {
		var err error
		if d.quoteB, err = q.MarshalJSON(); err != nil {
			return d, err
		}
		if d.txB, err = engine.EncodeRecord(tx); err != nil {
			return d, err
		}
	}
	return d, nil
}

// quoteInstructions tell the payer of a real-time funded quote where to pay;
// the reference is the quote id (POST /sandbox/send simulates the payment).
func quoteInstructions(q *Record) []accounts.PaymentInstructions {
	ins := accounts.FundingInstructions(&accounts.InternalAccount{ID: "InternalAccount:" + strings.TrimPrefix(q.ID, "Quote:"), CustomerID: q.CustomerID, Currency: q.SendingCurrency.Code})
	for i := range ins {
		if _, ok := ins[i].AccountOrWalletInfo["reference"]; ok {
			ins[i].AccountOrWalletInfo["reference"] = q.ID
		}
		ins[i].InstructionsNotes = "Pay the total sending amount, quoting " + q.ID + "."
	}
	return ins
}

// walletInstructionsNotes tell the payer of a quote funded from an
// embedded wallet how to authorize it: payloadToSign, stamped as it is with
// the session key of a verified credential on the wallet, goes with the
// execution in the wallet-signature header.
func walletInstructionsNotes(q *Record) string {
	return "Stamp payloadToSign exactly as given with the session key of a verified authentication credential on " +
		q.Source.AccountID + ", then execute " + q.ID + " with that stamp in the wallet-signature header."
}

// supportedCurrency returns the platform's configuration of the currency
// code, or INVALID_CURRENCY when the platform does not support it.
func supportedCurrency(p *platform.Config, code string) (*platform.CurrencyConfig, error) {
	for i := range p.SupportedCurrencies {
		if p.SupportedCurrencies[i].CurrencyCode == code {
			return &p.SupportedCurrencies[i], nil
		}
	}
	return nil, engine.Errorf(engine.CodeInvalidCurrency, "currency %q is not supported by this platform", code)
}

// Service prices, executes and authorizes quotes, and answers exchange
// rates. Reach it as eng.Quotes (payments.Quotes).
type Service struct{ e *engine.Handle }

// NewService returns the Quotes group of h.
func NewService(h *engine.Handle) Service { return Service{h} }

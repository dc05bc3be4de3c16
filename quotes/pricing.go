package quotes

import (
	"errors"
	"slices"
	"strings"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes/lookups"
	"github.com/paygrid/payments/quotes/rates"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/validate"
)

// Pricing a quote request runs in three steps, inside the quote's
// transaction:
//
//  1. resolveParties reads what the request names: the source account (an
//     internal account, or an external one pulled from), the sending
//     customer, the receiver's lookup and the destination account;
//  2. checkParties decides, without reading anything more, whether the
//     request may be quoted between them, reporting the field errors of
//     each side at once;
//  3. priceParties computes the amounts (Compute, the pure arithmetic of
//     price.go) at the rate of the pair and checks them against the
//     platform's limits and the destination.

// priceQuote resolves the parties of req, checks them and prices the
// quote: the record to store, not yet saved.
func priceQuote(e *engine.Handle, t *engine.Txn, req *Request) (*Record, error) {
	pt, err := resolveParties(t, req)
	if err != nil {
		return nil, err
	}
	if err := checkParties(req, pt); err != nil {
		return nil, err
	}
	return priceParties(e, t, req, pt)
}

// parties are the records a quote request names.
type parties struct {
	pull      *rails.ExternalAccount    // an external source the quote pulls from, or
	source    *accounts.InternalAccount // an internal source account (nil for real-time funding)
	sender    *customers.Customer       // the sending customer, when there is one
	lookup    *Lookup                   // the receiver's lookup (UMA destinations)
	internal  *accounts.InternalAccount // an internal destination, or
	external  *accounts.ExternalRecord  // an external destination
	sourceBad bool                      // the source has field errors: nothing more was read
}

// resolveParties reads the records req names, in the order a refusal is
// reported: the source, the sending customer (SENDER_NOT_ACCEPTED when it
// may not send, CUSTOMER_NOT_FOUND), then the destination. A missing record
// is its area's NOT_FOUND. A source with field errors stops the reading, so
// those errors are the answer (checkParties).
func resolveParties(t *engine.Txn, req *Request) (*parties, error) {
	pt := &parties{}
	var err error
	switch src := req.Source; {
	case src.SourceType == SourceAccount && strings.HasPrefix(src.AccountID, "ExternalAccount:"):
		if pt.pull, err = pullSource(t, src.AccountID); err != nil {
			return nil, err
		}
	case src.SourceType == SourceAccount && strings.HasPrefix(src.AccountID, "InternalAccount:"):
		if pt.source, err = accounts.SharedInternal(t, src.AccountID); err != nil {
			return nil, err
		}
	}
	if pt.sourceBad = sourceErrors(req, pt) != nil; pt.sourceBad {
		return pt, nil
	}
	if id := pt.customerID(req); id != "" {
		// A customer that may not send gets no quote to send with (its
		// execution checks again, in its own transaction).
		if pt.sender, err = customers.Sending(t, id); err != nil {
			return nil, err
		}
	}
	switch dst := req.Destination; {
	case dst.DestinationType == DestinationUMAAddress:
		pt.lookup, err = lookups.Get(t, req.LookupID)
	case strings.HasPrefix(dst.AccountID, "InternalAccount:"):
		pt.internal, err = accounts.SharedInternal(t, dst.AccountID)
	case dst.AccountID == req.Source.AccountID:
		// SELF_PAYMENT (checkParties), whatever the account is.
	default:
		pt.external, err = accounts.SharedExternal(t, dst.AccountID)
	}
	if err != nil {
		return nil, err
	}
	return pt, nil
}

// customerID is the sending customer: the owner of the source account, or
// the customer a platform (FBO) account pays for, or the one a real-time
// funded quote names.
func (pt *parties) customerID(req *Request) string {
	switch {
	case pt.pull != nil:
		return pt.pull.CustomerID
	case pt.source != nil && pt.source.CustomerID == "":
		return req.Source.CustomerID
	case pt.source != nil:
		return pt.source.CustomerID
	}
	return req.Source.CustomerID
}

// sendingCurrency is the currency the quote is paid in.
func (pt *parties) sendingCurrency(req *Request) string {
	switch {
	case pt.pull != nil:
		return pt.pull.Currency
	case pt.source != nil:
		return pt.source.Currency
	}
	return req.Source.Currency
}

// receivingCurrency is the currency the receiver gets.
func (pt *parties) receivingCurrency(req *Request) string {
	switch {
	case pt.internal != nil:
		return pt.internal.Currency
	case pt.external != nil:
		return pt.external.Currency
	}
	if cur := req.Destination.Currency; cur != "" || pt.lookup == nil || len(pt.lookup.SupportedCurrencies) == 0 {
		return cur
	}
	return pt.lookup.SupportedCurrencies[0].Currency.Code
}

// fromWallet reports whether the quote is paid from an embedded wallet.
func (pt *parties) fromWallet() bool {
	return pt.source != nil && pt.source.Type == accounts.EmbeddedWallet
}

// checkParties decides whether req may be quoted between its parties,
// reading nothing: the source's field errors (all of them) come first,
// then SELF_PAYMENT, then the destination's field errors (all of them).
func checkParties(req *Request, pt *parties) error {
	if err := sourceErrors(req, pt); err != nil {
		return engine.Invalid(err)
	}
	if err := selfPayment(req, pt); err != nil {
		return err
	}
	return engine.Invalid(destinationErrors(req, pt).Err())
}

// sourceErrors are the field errors of the request's source.
func sourceErrors(req *Request, pt *parties) error {
	var fe validate.Errors
	switch {
	case req.Source.SourceType != SourceAccount || pt.pull != nil:
	case pt.source == nil:
		fe.Add("source.accountId", nil, "source.accountId must be an internal account or an external account that supports direct pull")
	case pt.fromWallet() && req.ImmediatelyExecute:
		fe.Add("immediatelyExecute", nil, "a quote paid from an embedded wallet executes only with the wallet's signature: create it without immediatelyExecute, then execute it with the Service-Wallet-Signature header")
	default:
		// A platform (FBO) account pays on behalf of the customer the
		// request names; a customer's account only for its owner.
		if cid := req.Source.CustomerID; cid != "" && pt.source.CustomerID != "" && cid != pt.source.CustomerID {
			fe.Add("source.customerId", nil, "account %s belongs to another customer", pt.source.ID)
		}
	}
	return fe.Err()
}

// selfPayment refuses a quote whose receiver is its sender: the same
// account on both sides, or a customer paying its own UMA address.
func selfPayment(req *Request, pt *parties) error {
	switch {
	case pt.lookup != nil && pt.lookup.ReceiverCustomerID != "" && pt.lookup.ReceiverCustomerID == pt.customerID(req):
		return engine.Errorf(CodeSelfPayment, "a customer cannot pay its own UMA address")
	case pt.lookup == nil && req.Destination.AccountID == req.Source.AccountID:
		return engine.Errorf(CodeSelfPayment, "source and destination are the same account")
	}
	return nil
}

// destinationErrors are the field errors of the request's destination:
// a lookup made for another receiver, payer data the receiver requires,
// a payment rail the account does not offer, and the purpose a business
// payout to China needs.
func destinationErrors(req *Request, pt *parties) validate.Errors {
	var fe validate.Errors
	if l := pt.lookup; l != nil {
		if l.ReceiverUmaAddress != strings.TrimSpace(req.Destination.UmaAddress) && l.ReceiverUmaAddress != "$"+req.Destination.UmaAddress {
			fe.Add("lookupId", nil, "lookup %s was made for %s, not %s", l.ID, l.ReceiverUmaAddress, req.Destination.UmaAddress)
		}
		for _, f := range l.RequiredPayerDataFields {
			if v, ok := req.SenderCustomerInfo[f.Name]; f.Mandatory && (!ok || v == nil || v == "") {
				fe.Add("senderCustomerInfo."+f.Name, nil, "the receiver requires %s in senderCustomerInfo", f.Name)
			}
		}
	}
	if r := pt.external; r != nil {
		if rail := req.Destination.PaymentRail; rail != "" {
			if rails := accounts.Variants[r.Type].Rails; !slices.Contains(rails, string(rail)) {
				fe.Add("destination.paymentRail", &validate.Constraint{Enum: rails}, "destination.paymentRail %s is not a rail of this %s account (its rails: %s)",
					rail, r.Currency, strings.Join(rails, ", "))
			}
		}
		if r.Currency == "CNY" && strings.Contains(string(r.AccountInfo), `"BUSINESS"`) && !slices.Contains(chinaPurposes, req.PurposeOfPayment) {
			fe.Add("purposeOfPayment", &validate.Constraint{Enum: chinaPurposes}, "a business payout to China needs one of the trade purposes of payment")
		}
	}
	return fe
}

// rail is the rail the quote's payment settles on: INTERNAL between
// accounts of the platform, UMA to a UMA address, and for an external
// account the rail the request names, the currency's payout rail, or the
// account's chain.
func (pt *parties) rail(req *Request) string {
	switch {
	case pt.lookup != nil:
		return "UMA"
	case pt.external == nil:
		return "INTERNAL"
	}
	if ch := accounts.Chain(pt.external.Type); ch != "" {
		return ch
	}
	if r := req.Destination.PaymentRail; r != "" {
		return string(r)
	}
	return string(payoutRail(pt.external.Currency))
}

// priceParties prices a checked request between its parties: the
// platform's currencies and fees (with a fee override, which only a USD
// source takes), the rate of the pair, the amounts (Compute), the
// platform's limits and the destination's capacity, and returns the quote
// record.
func priceParties(e *engine.Handle, t *engine.Txn, req *Request, pt *parties) (*Record, error) {
	p, err := platform.Load(t)
	if err != nil {
		return nil, err
	}
	sendCur, recvCur := pt.sendingCurrency(req), pt.receivingCurrency(req)
	sendCfg, err := supportedCurrency(p, sendCur)
	if err != nil {
		return nil, err
	}
	recvCfg, err := supportedCurrency(p, recvCur)
	if err != nil {
		return nil, err
	}
	fees := rates.PlatformFees(p, sendCur, recvCur)
	if o := req.PlatformFeeOverride; o != nil {
		var fe validate.Errors
		if sendCur != "USD" {
			fe.Add("platformFeeOverride", nil, "platformFeeOverride is supported only when the source currency is USD")
		} else if o.PlatformFixedFee.Currency != sendCur {
			fe.Add("platformFeeOverride.platformFixedFee.currency", nil, "the fixed fee must be in the source currency %s", sendCur)
		}
		if err := engine.Invalid(fe.Err()); err != nil {
			return nil, err
		}
		fees.PlatformFixed, fees.PlatformBps = o.PlatformFixedFee.Amount, *o.PlatformVariableFeeBps
	}
	r, err := pricingRate(e, req, sendCur, recvCur)
	if err != nil {
		return nil, err
	}
	amt, err := computeAmounts(req, sendCur, recvCur, r, fees)
	if err != nil {
		return nil, err
	}
	if amt.Sending < sendCfg.MinAmount {
		return nil, engine.Errorf(engine.CodeAmountOutOfRange, "the sending amount %d is below the %s minimum %d", amt.Sending, sendCur, sendCfg.MinAmount)
	}
	if amt.Sending > sendCfg.MaxAmount || amt.Receiving > recvCfg.MaxAmount {
		return nil, engine.Errorf(CodeTransactionSizeLimitExceeded, "the transfer exceeds the single-transaction maximum for %s to %s", sendCur, recvCur)
	}
	if pt.external != nil {
		if err := accounts.UsableDestination(t, pt.external, amt.Receiving); err != nil {
			return nil, err
		}
	}
	q := &Record{Quote: Quote{Source: req.Source, Destination: req.Destination, PurposeOfPayment: req.PurposeOfPayment, Status: Pending},
		Description: req.Description, RemittanceInformation: req.RemittanceInformation}
	q.CustomerID, q.SourceExternal, q.Rail = pt.customerID(req), pt.pull != nil, pt.rail(req)
	if pt.sender != nil {
		q.PlatformCustomerID = pt.sender.PlatformCustomerID
	}
	switch {
	case pt.internal != nil:
		q.DestinationInternal, q.ReceiverCustomerID = true, pt.internal.CustomerID
	case pt.lookup != nil:
		q.ReceiverCustomerID, q.DestinationInternal = pt.lookup.ReceiverCustomerID, pt.lookup.ReceiverCustomerID != ""
	}
	if q.ID, err = e.NewID("Quote"); err != nil {
		return nil, err
	}
	if q.TransactionID, err = e.NewID("Transaction"); err != nil {
		return nil, err
	}
	q.CreatedAt, q.ExpiresAt = t.Now, t.Now.Add(TTL(q.Rail))
	q.SendingCurrency, q.ReceivingCurrency = accounts.AmountOf(sendCur, 0).Currency, accounts.AmountOf(recvCur, 0).Currency
	q.TotalSendingAmount, q.TotalReceivingAmount, q.ExchangeRate = amt.Sending, amt.Receiving, r
	q.FeesIncluded, q.PlatformFeesIncluded, q.ServiceFees = amt.FeesIncluded, amt.PlatformFees, amt.FeesIncluded-amt.PlatformFees
	q.RateDetails = &RateDetails{CounterpartyMultiplier: 1, ServiceApiMultiplier: r, ServiceApiFixedFee: fees.ServiceFixed,
		ServiceApiVariableFeeAmount: amt.ServiceVariable}
	q.RateDetails.ServiceApiVariableFeeRate = money.Float64(fees.ServiceRate)
	if pt.fromWallet() {
		q.PayloadToSign = quotesSlot.Of(t.Handle).WalletPayload(q)
		q.PaymentInstructions = []accounts.PaymentInstructions{{InstructionsNotes: walletInstructionsNotes(q),
			AccountOrWalletInfo: map[string]any{"accountType": accounts.EmbeddedWallet, "payloadToSign": q.PayloadToSign}}}
	}
	if req.Source.SourceType == SourceRealtimeFunding {
		q.PaymentInstructions = quoteInstructions(q)
		if err := requireSCA(e, t, q, req.sca, req.ScaFactor); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// computeAmounts is Compute for req at rate r with fees, its refusals
// turned into the API's: a figure that does not fit is the request's
// lockedCurrencyAmount's fault; a rate that cannot price is
// QUOTE_RATE_UNAVAILABLE; fees that cannot apply, or an amount that does
// not cover them, AMOUNT_OUT_OF_RANGE.
func computeAmounts(req *Request, sendCur, recvCur string, r money.Rate, fees Fees) (Amounts, error) {
	sc, _ := money.Lookup(sendCur)
	rc, _ := money.Lookup(recvCur)
	amt, err := Compute(Input{LockedSide: req.LockedCurrencySide, Amount: req.LockedCurrencyAmount, Rate: r.Decimal(),
		SendingDecimals: sc.Decimals, ReceivingDecimals: rc.Decimals, Fees: fees})
	switch {
	case errors.Is(err, ErrRange):
		locked := sendCur
		if req.LockedCurrencySide == Receiving {
			locked = recvCur
		}
		var fe validate.Errors
		fe.Add("lockedCurrencyAmount", nil, "at the current rate and fees, %d %s minor units gives an amount beyond %d minor units on the other side of the quote",
			req.LockedCurrencyAmount, locked, money.MaxAmount)
		return amt, engine.Invalid(fe)
	case errors.Is(err, ErrRate):
		return amt, engine.Errorf(engine.CodeQuoteRateUnavailable, "the rate for %s to %s cannot price a quote", sendCur, recvCur)
	case errors.Is(err, ErrFees):
		return amt, engine.Errorf(engine.CodeAmountOutOfRange, "the fee settings of this transfer cannot be applied: %v", err)
	case err != nil:
		return amt, engine.Errorf(engine.CodeAmountOutOfRange, "the amount does not cover the fees of this transfer")
	}
	return amt, nil
}

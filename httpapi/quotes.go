package httpapi

import (
	"net/http"
	"time"

	"github.com/paygrid/payments"
)

// quoteRoutes serve quotes, transactions, the deprecated transfers, the
// sandbox's money simulators and the reference's test webhook. Everything
// that moves money takes TRANSACT.
//
// Statuses on the wire: creating a quote is 201, or 202 when it waits for
// the customer's SCA authorization (PENDING_AUTHORIZATION: POST
// .../authorize completes it, customers_sca.go resends its code); executing
// one is 200 with the quote as it stands, PROCESSING or, in an SCA region,
// PENDING_AUTHORIZATION. A quote paid from an embedded wallet executes only
// with the brand's wallet-signature header, a stamp over the quote's
// payloadToSign (WALLET_SIGNATURE_MISSING without it). A quote executes
// once: a second execute is CONFLICT, while a retry with the same
// Idempotency-Key replays the first answer.
func quoteRoutes() []route {
	return []route{
		{method: "POST", path: "/quotes", perm: transact, fn: createQuote},
		{method: "GET", path: "/quotes/{quoteId}", fn: getQuote},
		{method: "POST", path: "/quotes/{quoteId}/execute", perm: transact, fn: executeQuote},
		{method: "POST", path: "/quotes/{quoteId}/authorize", perm: transact, fn: authorizeQuote},
		{method: "GET", path: "/transactions", fn: listTransactions},
		{method: "GET", path: "/transactions/{transactionId}", fn: getTransaction},
		{method: "POST", path: "/transactions/{transactionId}/approve", perm: transact, fn: decideIncoming(payments.ApproveIncoming)},
		{method: "POST", path: "/transactions/{transactionId}/reject", perm: transact, fn: decideIncoming(payments.RejectIncoming)},
		{method: "POST", path: "/transactions/{transactionId}/confirm", perm: transact, fn: confirmTransaction},
		{method: "POST", path: "/transactions/{transactionId}/cancel", perm: transact, fn: cancelTransaction},
		{method: "POST", path: "/transfer-out", perm: transact, fn: transferOut},
		{method: "POST", path: "/transfer-in", perm: transact, fn: transferIn},
		{method: "POST", path: "/sandbox/send", perm: transact, fn: sandboxSend},
		{method: "POST", path: "/sandbox/receive", perm: transact, fn: sandboxReceive},
		{method: "POST", path: "/sandbox/uma/receive", perm: transact, fn: sandboxReceive},
		{method: "POST", path: "/sandbox/webhooks/test", perm: manage, fn: testWebhook},
	}
}

// createQuote is POST /quotes: 201 with the priced quote and its
// transaction, 202 when it awaits SCA authorization.
func createQuote(r *request) (int, any, error) {
	in, fast := decodeQuoteRequest(r.body)
	if !fast {
		in = payments.QuoteRequest{}
		if err := r.decode(&in); err != nil {
			return fail(err)
		}
	}
	q, err := r.eng.Quotes.Create(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	if q.AwaitsAuthorization() {
		return ok(http.StatusAccepted, q)
	}
	return ok(http.StatusCreated, q)
}

// authorizeQuote is POST /quotes/{quoteId}/authorize with the SMS code or
// passkey assertion of the quote's challenge: 200 with the quote, executed
// or (real-time funded) waiting for its funds. It needs an SCA login session
// (SCA_SESSION_REQUIRED); a wrong proof is INVALID_INPUT and counts towards
// ACCOUNT_LOCKED.
func authorizeQuote(r *request) (int, any, error) {
	var in payments.ScaAuthorization
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	q, err := r.eng.SCA.Authorize(r.ctx(), r.path("quoteId"), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, q)
}

// getQuote is GET /quotes/{quoteId}.
func getQuote(r *request) (int, any, error) {
	q, err := r.eng.Quotes.Get(r.ctx(), r.path("quoteId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, q)
}

// executeQuote is POST /quotes/{quoteId}/execute, with an optional
// {"scaFactor"} (the factor of the SCA challenge it may issue) and, for a
// wallet-funded quote, the wallet-signature header: 200 with the quote.
func executeQuote(r *request) (int, any, error) {
	var in payments.ExecuteOptions
	if err := r.decodeOptional(&in); err != nil {
		return fail(err)
	}
	in.WalletSignature = r.Header.Get(r.h.brand.WalletSignatureHeader())
	q, err := r.eng.Quotes.ExecuteWith(r.ctx(), r.path("quoteId"), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, q)
}

// listTransactions is GET /transactions, newest first (sortOrder=asc for
// oldest), card transactions included, filtered by customerId,
// platformCustomerId, status, type, the account identifiers, reference and
// the startDate/endDate bounds; paged by limit and cursor.
func listTransactions(r *request) (int, any, error) {
	q := r.query()
	f := payments.TransactionFilter{CustomerID: q.str("customerId"), PlatformCustomerID: q.str("platformCustomerId"),
		Status: payments.TransactionStatus(q.str("status")), Type: payments.TransactionType(q.str("type")), AccountIdentifier: q.str("accountIdentifier"),
		SenderAccountIdentifier: q.str("senderAccountIdentifier"), ReceiverAccountIdentifier: q.str("receiverAccountIdentifier"),
		Reference: q.str("reference"), StartDate: q.time("startDate"), EndDate: q.time("endDate")}
	p := q.page(true)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Transactions.List(r.ctx(), f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// getTransaction is GET /transactions/{transactionId}.
func getTransaction(r *request) (int, any, error) {
	tx, err := r.eng.Transactions.Get(r.ctx(), r.path("transactionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tx)
}

// decideIncoming serves POST /transactions/{transactionId}/approve and
// /reject: the platform's decision on an incoming payment waiting for it
// (payments.Config.IncomingApproval), 200 with the transaction;
// TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL once decided or timed out. The
// optional reason is accepted and not stored.
func decideIncoming(d payments.Decision) handlerFunc {
	return func(r *request) (int, any, error) {
		var in struct {
			Reason string `json:"reason"` // kept by the platform; the engine needs none
		}
		if err := r.decodeOptional(&in); err != nil {
			return fail(err)
		}
		tx, err := r.eng.Transactions.Decide(r.ctx(), r.path("transactionId"), d)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, tx)
	}
}

// confirmTransaction is POST /transactions/{transactionId}/confirm, with an
// optional {"receiptDeliveryConfirmedAt"} (now by default): the time the
// receipt reached the receiver, 200. It changes no status and emits no
// event.
func confirmTransaction(r *request) (int, any, error) {
	var in struct {
		ReceiptDeliveryConfirmedAt time.Time `json:"receiptDeliveryConfirmedAt"`
	}
	if err := r.decodeOptional(&in); err != nil {
		return fail(err)
	}
	tx, err := r.eng.Transactions.ConfirmReceipt(r.ctx(), r.path("transactionId"), in.ReceiptDeliveryConfirmedAt)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tx)
}

// cancelTransaction is POST /transactions/{transactionId}/cancel: an
// outgoing payment whose rail outcome is still to come fails and the sender
// is refunded, 200 with the transaction; anything else is
// TRANSACTION_NOT_CANCELLABLE.
func cancelTransaction(r *request) (int, any, error) {
	tx, err := r.eng.Transactions.Cancel(r.ctx(), r.path("transactionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tx)
}

// accountRef is the reference's {"accountId"} member of a transfer.
type accountRef struct {
	AccountID string `json:"accountId"`
}

// destinationRef is a transfer-out's destination: the external account and
// the rail to pay it on, one of the account's (empty: its default, such as
// ACH for a US account).
type destinationRef struct {
	AccountID   string               `json:"accountId"`
	PaymentRail payments.PaymentRail `json:"paymentRail"`
}

// transferOut is the deprecated POST /transfer-out: a same-currency payout
// from an internal to an external account, 201 with the transaction (not a
// quote). Field errors name the transfer's own members (amount,
// destination.paymentRail).
func transferOut(r *request) (int, any, error) {
	var in struct {
		Source                accountRef     `json:"source"`
		Destination           destinationRef `json:"destination"`
		Amount                int64          `json:"amount"`
		RemittanceInformation string         `json:"remittanceInformation"`
		PurposeOfPayment      string         `json:"purposeOfPayment"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	tx, err := r.eng.Transactions.TransferOut(r.ctx(), payments.TransferOutRequest{SourceAccountID: in.Source.AccountID,
		DestinationAccountID: in.Destination.AccountID, PaymentRail: in.Destination.PaymentRail, Amount: in.Amount,
		RemittanceInformation: in.RemittanceInformation, PurposeOfPayment: in.PurposeOfPayment})
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, tx)
}

// transferIn is the deprecated POST /transfer-in: a pull from a customer's
// external account into its internal account, 201 with the transaction,
// PENDING until the rail reports the pull.
func transferIn(r *request) (int, any, error) {
	var in struct {
		Source      accountRef `json:"source"`
		Destination accountRef `json:"destination"`
		Amount      int64      `json:"amount"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	tx, err := r.eng.Transactions.TransferIn(r.ctx(), payments.TransferInRequest{SourceAccountID: in.Source.AccountID, DestinationAccountID: in.Destination.AccountID, Amount: in.Amount})
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, tx)
}

// sandboxSend is POST /sandbox/send: the payer funding a real-time funded
// quote with currencyAmount of currencyCode (0 means the total), 200 with
// the transaction. An amount other than the sending total fails the payment
// (FUNDING_AMOUNT_MISMATCH) and returns the money.
func sandboxSend(r *request) (int, any, error) {
	var in struct {
		QuoteID        string `json:"quoteId"`
		CurrencyCode   string `json:"currencyCode"`
		CurrencyAmount int64  `json:"currencyAmount"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	tx, err := r.eng.Sandbox.Send(r.ctx(), in.QuoteID, in.CurrencyCode, in.CurrencyAmount)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tx)
}

// sandboxReceive serves POST /sandbox/receive and the reference's
// /sandbox/uma/receive: an incoming UMA payment from a sandbox counterparty,
// 200 with the transaction. Magic senders steer it ($fail.compliance fails,
// $pending.long settles late).
func sandboxReceive(r *request) (int, any, error) {
	var in payments.ReceiveRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	tx, err := r.eng.Sandbox.Receive(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tx)
}

// testWebhook is the reference's POST /sandbox/webhooks/test (MANAGE): a
// TEST event sent to the configured endpoint now, outside the outbox and
// never retried, 200 with the endpoint's answer. WEBHOOK_ENDPOINT_NOT_SET
// without an endpoint, WEBHOOK_DELIVERY_ERROR when it does not answer 2xx.
func testWebhook(r *request) (int, any, error) {
	res, err := r.eng.Webhooks.SendTest(r.ctx())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, res)
}

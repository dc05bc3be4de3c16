package httpapi

import (
	"net/http"
	"time"

	"github.com/paygrid/payments"
)

// quoteRoutes serve quotes, transactions, transfers and the sandbox's
// money simulators.
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

func createQuote(r *request) (int, any, error) {
	var in payments.QuoteRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
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

func getQuote(r *request) (int, any, error) {
	q, err := r.eng.Quotes.Get(r.ctx(), r.path("quoteId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, q)
}

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

func listTransactions(r *request) (int, any, error) {
	q := r.query()
	f := payments.TransactionFilter{CustomerID: q.str("customerId"), PlatformCustomerID: q.str("platformCustomerId"),
		Status: payments.TransactionStatus(q.str("status")), Type: q.str("type"), AccountIdentifier: q.str("accountIdentifier"),
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

func getTransaction(r *request) (int, any, error) {
	tx, err := r.eng.Transactions.Get(r.ctx(), r.path("transactionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tx)
}

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

func cancelTransaction(r *request) (int, any, error) {
	tx, err := r.eng.Transactions.Cancel(r.ctx(), r.path("transactionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tx)
}

type accountRef struct {
	AccountID string `json:"accountId"`
}

type destinationRef struct {
	AccountID   string `json:"accountId"`
	PaymentRail string `json:"paymentRail"`
}

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

func testWebhook(r *request) (int, any, error) {
	res, err := r.eng.Webhooks.SendTest(r.ctx())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, res)
}

package crashtest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
)

// worker issues one stream of requests on its own customer and USD account
// and keeps the account's expected balance from the committed answers.
//
// Only a worker's own calls touch its account, so its balance is known
// exactly: funded - spent. A call whose outcome became unknown (its retry
// broke the contract) widens that to a range: funded - spent - unknownSpend
// up to funded + unknownFund - spent.
type worker struct {
	n          int
	rng        *rand.Rand
	customerID string
	account    string // the customer's USD internal account
	external   string // the customer's USD bank account (sandbox suffix 000: pays out)
	sink       string // another customer's USD internal account, shared by every worker

	seq          int
	funded       int64
	spent        int64
	unknownFund  int64
	unknownSpend int64
	quote        *pendingQuote // created, to execute next
	unknown      []*call       // calls whose outcome is unknown
}

// pendingQuote is a created quote awaiting execution.
type pendingQuote struct {
	id    string
	total int64 // totalSendingAmount
}

// low is the least the account can hold.
func (w *worker) low() int64 { return w.funded - w.spent - w.unknownSpend }

// high is the most the account can hold.
func (w *worker) high() int64 { return w.funded + w.unknownFund - w.spent }

// next returns the worker's next call: the execution of its pending quote,
// else a random operation it can afford.
func (w *worker) next(round int) *call {
	w.seq++
	key := func(k opKind) string { return fmt.Sprintf("w%d-%05d-%s", w.n, w.seq, k) }
	c := &call{Worker: w.n, Round: round}
	if w.quote != nil {
		c.Kind, c.Key, c.Path, c.Want, c.Amount = opExecute, key(opExecute), "/quotes/"+w.quote.id+"/execute", http.StatusOK, w.quote.total
		return c
	}
	amount := 100 + w.rng.Int64N(900)
	dest := w.sink
	if w.rng.IntN(2) == 0 {
		dest = w.external
	}
	r := w.rng.IntN(100)
	if r >= 20 && w.low() < amount {
		r = 10 // cannot afford a spend: fund instead
	}
	switch {
	case r < 10:
		c.Kind = opCustomer
		c.Key = key(c.Kind)
		c.Path, c.Want = "/customers", http.StatusCreated
		c.Body = mustJSON(individual(c.Key + "@crash.example"))
	case r < 20:
		c.Kind = opFund
		c.Key = key(c.Kind)
		c.Amount = 1000 + w.rng.Int64N(4000)
		c.Path, c.Want = "/sandbox/internal-accounts/"+w.account+"/fund", http.StatusOK
		c.Body = mustJSON(map[string]any{"amount": c.Amount})
	case r < 50:
		c.Kind = opQuote
		c.Key = key(c.Kind)
		c.Path, c.Want = "/quotes", http.StatusCreated
		c.Body = mustJSON(quoteBody(w.account, dest, amount, false))
	case r < 75:
		c.Kind = opQuoteNow
		c.Key = key(c.Kind)
		c.Path, c.Want, c.Amount = "/quotes", http.StatusCreated, amount
		c.Body = mustJSON(quoteBody(w.account, dest, amount, true))
	default:
		c.Kind = opTransferOut
		c.Key = key(c.Kind)
		c.Path, c.Want, c.Amount = "/transfer-out", http.StatusCreated, amount
		c.Body = mustJSON(map[string]any{"source": map[string]any{"accountId": w.account},
			"destination": map[string]any{"accountId": w.external}, "amount": amount})
	}
	return c
}

// run sends calls until stop is closed or a call gets no answer (the server
// was killed); it returns that call, in flight, or nil.
func (w *worker) run(stop <-chan struct{}, h *harness, round int) *call {
	for {
		select {
		case <-stop:
			return nil
		default:
		}
		c := w.next(round)
		h.journal.add(c)
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		ans, err := h.api.post(ctx, c)
		cancel()
		if err != nil {
			return c
		}
		c.Answer = ans
		if ans.Status != c.Want {
			h.failf("worker %d: %s: want %d, got %s", w.n, c, c.Want, ans)
		}
		w.apply(h, c)
	}
}

// apply updates the worker's state from c's committed answer.
func (w *worker) apply(h *harness, c *call) {
	ok := c.Answer.Status == c.Want
	var body struct {
		ID                 string `json:"id"`
		TotalSendingAmount int64  `json:"totalSendingAmount"`
		SentAmount         struct {
			Amount int64 `json:"amount"`
		} `json:"sentAmount"`
	}
	if ok {
		if err := json.Unmarshal(c.Answer.Body, &body); err != nil || body.ID == "" {
			h.failf("worker %d: %s: answer without an id: %s", w.n, c, c.Answer)
			ok = false
		}
	}
	switch c.Kind {
	case opFund:
		if ok {
			w.funded += c.Amount
		}
	case opQuote:
		if ok {
			w.quote = &pendingQuote{id: body.ID, total: body.TotalSendingAmount}
		}
	case opExecute:
		if ok {
			w.spent += c.Amount
		}
		w.quote = nil // executed, or refused: either way a new quote comes next
	case opQuoteNow:
		if ok {
			w.spent += body.TotalSendingAmount
		}
	case opTransferOut:
		if ok {
			w.spent += body.SentAmount.Amount
		}
	}
}

// lose records that c's outcome is unknown: it may or may not have run.
func (w *worker) lose(c *call) {
	w.unknown = append(w.unknown, c)
	switch c.Kind {
	case opFund:
		w.unknownFund += c.Amount
	case opExecute, opQuoteNow, opTransferOut:
		w.unknownSpend += c.Amount
	}
	if c.Kind == opExecute || c.Kind == opQuote {
		w.quote = nil
	}
}

// individual is a valid body creating a US individual who accepted the
// provider's end-user terms and may move money, with a USD account.
func individual(email string) map[string]any {
	return map[string]any{
		"customerType": "INDIVIDUAL", "fullName": "Crash Test Doe", "birthDate": "1990-01-15", "nationality": "US",
		"email": email, "phoneNumber": "+14155550123", "idType": "SSN", "identifier": "123-45-6789",
		"currencies": []string{"USD"},
		"address":    map[string]any{"line1": "1 Main St", "city": "Austin", "state": "TX", "postalCode": "78701", "country": "US"},
		"agreementConsents": []any{map[string]any{"type": "PROVIDER_END_USER_TERMS", "termsVersion": "2025-10-13",
			"acceptedAt": "2025-10-01T10:00:00Z", "ipAddress": "203.0.113.7", "acceptanceMethod": "CHECKBOX"}},
	}
}

// quoteBody prices amount (sending side) from an internal account to dest.
func quoteBody(source, dest string, amount int64, now bool) map[string]any {
	b := map[string]any{"source": map[string]any{"sourceType": "ACCOUNT", "accountId": source},
		"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": dest},
		"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": amount}
	if now {
		b["immediatelyExecute"] = true
	}
	return b
}

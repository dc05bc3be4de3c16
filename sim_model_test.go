package payments_test

// The reference model of TestSimulation (sim_test.go) and the checks that
// compare the engine with it after every step.
//
// The model keeps, per internal account, what sandbox funding put in, and
// per payment the path of states its scenario goes through (internal
// transfers complete at once; external destinations follow the sandbox
// suffix tables of sandbox.Rail: transfers and pulls, and quote payouts). A payment's effect on balances
// is a function of its state alone, so the expected balances are
// recomputed from the states observed and validated:
//
//	PENDING, EXPIRED, FAILED with its refund COMPLETED  nothing moved
//	PROCESSING, FAILED with its refund FAILED           the sending total is held
//	COMPLETED                                           sender -send, receiver +receive, platform +fee
//
// When a state is reached along the path is a rail detail, so the model
// only requires progress along the path (never backwards, never while the
// clock stands still) and the final state after more than three days.

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/sandbox"
)

// knownBugExpiredQuoteIsConflict: executing a quote past its expiresAt
// answers QUOTE_EXPIRED only until the expiry sweep (ProcessDue) has marked
// it EXPIRED; after the sweep the same call answers CONFLICT ("quote is
// EXPIRED; a quote executes once"). With the switch on the simulation
// accepts CONFLICT for a swept quote; turn it off once the engine answers
// QUOTE_EXPIRED in both cases.
var knownBugExpiredQuoteIsConflict = false

// simCurrencies are the currencies customers hold; externals are USD or EUR.
var simCurrencies = []string{"USD", "EUR", "MXN"}

// simSuffixes are the external account suffixes drawn (the sandbox rail's
// transfer, pull and payout suffixes).
var simSuffixes = []string{"000", "001", "002", "003", "004", "005", "006", "007", "009"}

// simState is a transaction's status with its refund's status ("" for none).
type simState struct{ status, refund payments.TransactionStatus }

func (s simState) String() string {
	if s.refund == "" {
		return string(s.status)
	}
	return string(s.status + "/refund " + s.refund)
}

var (
	simPending    = simState{payments.TxPending, ""}
	simProcessing = simState{payments.TxProcessing, ""}
	simCompleted  = simState{payments.TxCompleted, ""}
	simExpired    = simState{payments.TxExpired, ""}
	simFailed     = simState{payments.TxFailed, ""}
	simRefunded   = simState{payments.TxFailed, "COMPLETED"} // failed, money back
	simUnrefunded = simState{payments.TxFailed, "FAILED"}    // failed, refund failed: money stays held
)

// outgoingPath is the lifecycle of an executed outgoing payment.
func outgoingPath(internal, transfer bool, suffix string) []simState {
	switch {
	case internal:
		return []simState{simCompleted}
	case transfer: // the transfer suffixes
		switch suffix {
		case "002", "003", "004":
			return []simState{simRefunded}
		case "005":
			return []simState{simProcessing, simRefunded}
		}
		return []simState{simCompleted}
	}
	switch suffix { // the payout suffixes
	case "002", "004", "006":
		return []simState{simRefunded}
	case "003":
		return []simState{simProcessing, simCompleted}
	case "005":
		return []simState{simCompleted, simRefunded}
	case "007":
		return []simState{simUnrefunded}
	}
	return []simState{simCompleted}
}

// incomingPath is the lifecycle of a transfer-in pull (the pull suffixes;
// 009 completes and is returned at once).
func incomingPath(suffix string) []simState {
	switch suffix {
	case "002", "003", "004", "009":
		return []simState{simFailed}
	case "005":
		return []simState{simPending, simFailed}
	}
	return []simState{simCompleted}
}

type simAccount struct {
	id, owner, cur string // owner "" for the platform
	funded         int64
}

type simCustomer struct {
	id       string
	terms    bool
	accounts map[string]string // currency -> internal account id
}

type simExternal struct{ id, owner, cur, suffix string }

// simTx is a payment: a quote's transaction (executed or not), a transfer
// out or a transfer in.
type simTx struct {
	id, quoteID, label string
	incoming           bool
	funding            bool   // a sandbox funding (a deposit, counted in simAccount.funded)
	src, dst, srcCur   string // internal account ids ("" outside the platform)
	send, recv, pfee   int64
	expires            time.Time
	executed           bool
	external           bool // paid out through the rail
	path               []simState
	at                 int // index in path of the state last observed
}

func (t *simTx) String() string { return t.label + " " + t.id }

// answered is the status the executing operation answers with: the state
// it committed, before the rail reported anything. A payment to an
// internal account completes in that commit; one to the outside is
// PROCESSING and a transfer in PENDING until the rail's reports apply.
func (t *simTx) answered() payments.TransactionStatus {
	switch {
	case t.incoming:
		return payments.TxPending
	case t.external:
		return payments.TxProcessing
	}
	return t.path[0].status
}

// state is the state the model last accepted.
func (t *simTx) state(now time.Time) simState {
	switch {
	case t.executed:
		return t.path[t.at]
	case now.After(t.expires):
		return simExpired
	}
	return simPending
}

// simAnswer is an operation's outcome in the form the model compares.
type simAnswer struct {
	Status int
	Body   []byte
}

type simModel struct {
	accounts  map[string]*simAccount
	platform  map[string]string // currency -> platform account id
	customers []*simCustomer
	externals []*simExternal
	txs       []*simTx
	quotes    []*simTx // the quote-based ones
}

func newSimModel() *simModel {
	return &simModel{accounts: map[string]*simAccount{}, platform: map[string]string{}}
}

func (m *simModel) addAccount(id, owner, cur string) {
	m.accounts[id] = &simAccount{id: id, owner: owner, cur: cur}
}

// balances computes every account's available and held balance.
func (m *simModel) balances(now time.Time) (avail, held map[string]int64) {
	avail, held = map[string]int64{}, map[string]int64{}
	for id, a := range m.accounts {
		avail[id] = a.funded
	}
	for _, t := range m.txs {
		s := t.state(now)
		switch {
		case t.incoming:
			if s == simCompleted && !t.funding { // a funding's amount is in funded
				avail[t.dst] += t.send
			}
		case s == simProcessing || s == simUnrefunded:
			avail[t.src] -= t.send
			held[t.src] += t.send
		case s == simCompleted:
			avail[t.src] -= t.send
			avail[m.platform[t.srcCur]] += t.pfee
			if t.dst != "" {
				avail[t.dst] += t.recv
			}
		}
	}
	return avail, held
}

// processing reports whether a payment is PROCESSING (cancellable).
func (m *simModel) processing(now time.Time) bool {
	for _, t := range m.txs {
		if !t.incoming && t.state(now) == simProcessing {
			return true
		}
	}
	return false
}

func (w *simWorld) available(id string) int64 {
	avail, _ := w.model.balances(w.clock.Now())
	return avail[id]
}

// check compares the engine with the model. progress says whether the
// clock moved, so payments may have moved along their paths.
func (w *simWorld) check(progress bool) {
	m, now := w.model, w.clock.Now()
	// Due work the last clock advance left (and the engine's own worker may
	// apply at any moment) moves payments on while the clock stands still.
	progress = progress || !w.swept
	if err := payments.CheckLedger(simCtx, w.store); err != nil {
		w.failf("CheckLedger: %v", err)
	}
	// Transactions: exactly the model's, each in a state its path allows.
	got := map[string]payments.Transaction{}
	for cursor := ""; ; {
		page, err := w.eng.Transactions.List(simCtx, payments.TransactionFilter{}, payments.ListParams{Limit: payments.MaxLimit, Cursor: cursor})
		w.must(err, "ListTransactions")
		for _, tx := range page.Data {
			got[tx.ID] = tx
		}
		if cursor = page.NextCursor; !page.HasMore || cursor == "" {
			break
		}
	}
	if len(got) != len(m.txs) {
		known := map[string]bool{}
		for _, t := range m.txs {
			known[t.id] = true
		}
		var extra []string
		for id, tx := range got {
			if !known[id] {
				extra = append(extra, fmt.Sprintf("%s (%s %s)", id, tx.Type, tx.Status))
			}
		}
		w.failf("the engine lists %d transactions, the model knows %d; unknown to the model: %v", len(got), len(m.txs), extra)
	}
	for _, t := range m.txs {
		tx, ok := got[t.id]
		if !ok {
			w.failf("%s is missing from ListTransactions", t)
		}
		obs := simState{tx.Status, ""}
		if tx.Refund != nil {
			obs.refund = payments.TransactionStatus(tx.Refund.Status)
		}
		if !t.executed {
			want := t.state(now)
			lagging := !w.swept && want == simExpired && obs == simPending // not swept yet
			if obs != want && !lagging {
				w.failf("%s (never executed, expires %s, now %s) is %s, want %s", t, t.expires.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano), obs, want)
			}
		} else {
			idx := -1
			for i := t.at; i < len(t.path); i++ {
				if t.path[i] == obs {
					idx = i
					break
				}
			}
			switch {
			case idx < 0:
				w.failf("%s went from %s to %s; its path is %v", t, t.path[t.at], obs, t.path)
			case idx != t.at && !progress:
				w.failf("%s went from %s to %s while the clock stood still", t, t.path[t.at], obs)
			}
			t.at = idx
		}
		amount := tx.SentAmount
		if t.incoming {
			amount = tx.ReceivedAmount
		}
		if amount == nil || amount.Amount != t.send {
			w.failf("%s shows amount %v, want %d", t, amount, t.send)
		}
		if t.quoteID != "" {
			q, err := w.eng.Quotes.Get(simCtx, t.quoteID)
			w.must(err, "Quote "+t.quoteID)
			// Until due work runs, a quote reads as it will be recorded
			// (asRead) while its transaction still reads as stored.
			lagging := !w.swept && q.Status == payments.QuoteExpired && obs.status == payments.TxPending
			if string(q.Status) != string(obs.status) && !lagging {
				w.failf("quote %s is %s while its transaction %s is %s", q.ID, q.Status, t.id, obs)
			}
		}
	}
	// Balances: every customer and platform account in the sim currencies.
	avail, held := m.balances(now)
	seen := 0
	for _, scope := range []payments.Scope{payments.CustomerScope, payments.PlatformScope} {
		for cursor := ""; ; {
			page, err := w.eng.Accounts.ListInternal(simCtx, payments.InternalAccountFilter{}, scope, payments.ListParams{Limit: payments.MaxLimit, Cursor: cursor})
			w.must(err, "ListInternalAccounts")
			for _, a := range page.Data {
				if _, ok := m.accounts[a.ID]; !ok {
					if scope != payments.PlatformScope || a.Balance.Amount != 0 || a.TotalBalance.Amount != 0 {
						w.failf("account %s (%s, customer %q) unknown to the model: balance %d, total %d", a.ID, a.Currency, a.CustomerID, a.Balance.Amount, a.TotalBalance.Amount)
					}
					continue
				}
				seen++
				if a.Balance.Amount != avail[a.ID] || a.TotalBalance.Amount != avail[a.ID]+held[a.ID] {
					w.failf("account %s (%s, owner %q): available %d total %d, model available %d held %d\n%s", a.ID, a.Currency, m.accounts[a.ID].owner,
						a.Balance.Amount, a.TotalBalance.Amount, avail[a.ID], held[a.ID], w.explain(a.ID))
				}
			}
			if cursor = page.NextCursor; !page.HasMore || cursor == "" {
				break
			}
		}
	}
	if seen != len(m.accounts) {
		w.failf("the engine lists %d of the model's %d accounts", seen, len(m.accounts))
	}
}

// explain lists the model's view of one account, for failure messages.
func (w *simWorld) explain(id string) string {
	now := w.clock.Now()
	lines := []string{fmt.Sprintf("      funded %d", w.model.accounts[id].funded)}
	for _, t := range w.model.txs {
		if t.src == id || t.dst == id || w.model.platform[t.srcCur] == id && t.pfee > 0 {
			lines = append(lines, fmt.Sprintf("      %s: %s send %d receive %d fee %d (%s -> %s)", t, t.state(now), t.send, t.recv, t.pfee, t.src, t.dst))
		}
	}
	return strings.Join(lines, "\n")
}

// ---- operations ----

func simConsent() payments.AgreementConsent {
	return payments.AgreementConsent{Type: payments.AgreementProviderEndUserTerms, TermsVersion: payments.CurrentEndUserTerms.Version,
		AcceptedAt: simStart.Add(-24 * time.Hour), IPAddress: "203.0.113.9", AcceptanceMethod: "CHECKBOX"}
}

// opCreateCustomer creates an individual whose name's suffix approves it,
// with end-user terms accepted (mostly) and one to three currencies.
func (w *simWorld) opCreateCustomer() {
	w.names++
	name := "Sim Person " + string(rune('A'+w.names%26)) + string(rune('a'+w.names/26%26)) + "x"
	var curs []string
	for _, c := range simCurrencies {
		if w.rng.IntN(10) < 6 {
			curs = append(curs, c)
		}
	}
	if len(curs) == 0 {
		curs = []string{simPick(w, simCurrencies)}
	}
	terms := w.rng.IntN(100) < 85
	in := payments.CustomerInput{CustomerType: payments.CustomerIndividual, Identifier: "123-45-6789", Currencies: curs,
		Profile: customers.Profile{FullName: name, BirthDate: "1990-01-15", Nationality: "US", IDType: "SSN",
			Address: &customers.Address{Line1: "1 Main St", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"}}}
	if terms {
		in.AgreementConsents = []payments.AgreementConsent{simConsent()}
	}
	c, err := w.eng.Customers.Create(simCtx, in)
	w.must(err, "CreateCustomer")
	if c.KYCStatus != payments.KYCApproved {
		w.failf("customer %q is %s, want APPROVED (sandbox suffix rule)", name, c.KYCStatus)
	}
	page, err := w.eng.Accounts.ListInternal(simCtx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{Limit: payments.MaxLimit})
	w.must(err, "ListInternalAccounts")
	sc := &simCustomer{id: c.ID, terms: terms, accounts: map[string]string{}}
	for _, a := range page.Data {
		if sc.accounts[a.Currency] != "" || !simContains(curs, a.Currency) {
			w.failf("customer %s with currencies %v got account %s in %s", c.ID, curs, a.ID, a.Currency)
		}
		sc.accounts[a.Currency] = a.ID
		w.model.addAccount(a.ID, c.ID, a.Currency)
	}
	want := len(curs)
	if !terms {
		want = 0 // an unregulated platform opens accounts only after consent
	}
	if len(sc.accounts) != want {
		w.failf("customer %s with currencies %v (terms=%v) got %d accounts", c.ID, curs, terms, len(sc.accounts))
	}
	w.model.customers = append(w.model.customers, sc)
	w.note("customer %s %v terms=%v", c.ID, curs, terms)
	w.check(false)
}

// simIBAN returns a German IBAN (valid check digits) ending in suffix.
func simIBAN(n int, suffix string) string {
	bban := fmt.Sprintf("37040044%07d%s", n, suffix)
	rem := 0
	for _, ch := range bban + "131400" { // D=13, E=14, check digits 00
		rem = (rem*10 + int(ch-'0')) % 97
	}
	return fmt.Sprintf("DE%02d%s", 98-rem, bban)
}

// opCreateExternal registers a USD bank account or an EUR IBAN for a
// customer, its suffix drawn from the sandbox outcome table.
func (w *simWorld) opCreateExternal() {
	c := simPick(w, w.model.customers)
	sfx := simPick(w, simSuffixes)
	n := len(w.model.externals) + 1
	cur, info := "USD", fmt.Sprintf(`{"accountType":"USD_ACCOUNT","accountNumber":"55%05d%s","routingNumber":"021000021",`, n, sfx)
	if w.rng.IntN(2) == 0 {
		cur, info = "EUR", fmt.Sprintf(`{"accountType":"EUR_ACCOUNT","iban":"%s",`, simIBAN(n, sfx))
	}
	info += `"beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Sim Payee","countryOfResidence":"DE"}}`
	ext, err := w.eng.Accounts.CreateExternal(simCtx, payments.ExternalAccountInput{CustomerID: c.id, Currency: cur, AccountInfo: []byte(info)}, payments.CustomerScope)
	w.must(err, "CreateExternalAccount "+info)
	w.model.externals = append(w.model.externals, &simExternal{id: ext.ID, owner: c.id, cur: cur, suffix: sfx})
	w.note("external %s %s suffix %s for %s", ext.ID, cur, sfx, c.id)
	w.check(false)
}

// opFund credits an internal account from sandbox funding.
func (w *simWorld) opFund() {
	var ids []string
	for id, a := range w.model.accounts {
		if a.owner != "" || w.rng.IntN(10) == 0 {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids) // map order must not leak into the sequence
	if len(ids) == 0 {
		return
	}
	id := simPick(w, ids)
	amount := 1 + w.rng.Int64N(500_000)
	want := w.available(id) + amount
	v, err := w.eng.Sandbox.Fund(simCtx, id, amount)
	w.must(err, "FundInternalAccount")
	w.model.accounts[id].funded += amount
	if v.Balance.Amount != want {
		w.failf("funding %s with %d answered balance %d, want %d", id, amount, v.Balance.Amount, want)
	}
	// The funding is a deposit: a COMPLETED INCOMING transaction to the
	// account, the newest one (its amount is already in funded).
	page, err := w.eng.Transactions.List(simCtx, payments.TransactionFilter{Type: payments.TxIncoming, ReceiverAccountIdentifier: id},
		payments.ListParams{Limit: 1, Desc: true})
	w.must(err, "ListTransactions")
	if len(page.Data) != 1 || page.Data[0].Description != payments.SandboxFundingDescription || page.Data[0].ReceivedAmount.Amount != amount {
		w.failf("funding %s with %d made no INCOMING transaction: %+v", id, amount, page.Data)
	}
	w.model.txs = append(w.model.txs, &simTx{id: page.Data[0].ID, label: "funding " + v.Currency, incoming: true, funding: true, dst: id,
		srcCur: v.Currency, send: amount, recv: amount, executed: true, path: []simState{simCompleted}})
	w.note("funded %s with %d", id, amount)
	w.check(false)
}

// simAmount draws an amount around the available balance, sometimes above.
func (w *simWorld) simAmount(avail int64) int64 {
	if w.rng.IntN(10) == 0 {
		return 1 + w.rng.Int64N(200)
	}
	return 1 + w.rng.Int64N(max(2000, avail*13/10))
}

// quoteDraft is a quote request with what the model needs to know of it.
type quoteDraft struct {
	req      payments.QuoteRequest
	cust     *simCustomer
	src, dst string // dst "" for an external account
	dstCur   string
	ext      *simExternal
}

func (d *quoteDraft) String() string {
	to := d.dst
	if d.ext != nil {
		to = d.ext.id + " suffix " + d.ext.suffix
	}
	return fmt.Sprintf("%s %d %s from %s to %s (%s)", d.req.LockedCurrencySide, d.req.LockedCurrencyAmount,
		map[bool]string{true: "immediately", false: "quote"}[d.req.ImmediatelyExecute], d.src, to, d.dstCur)
}

// draftQuote draws a quote: internal to internal (same or another currency,
// another customer or the sender's other account) or to an external
// account. ok is false when the sequence has nothing to quote yet.
func (w *simWorld) draftQuote(immediate bool) (d quoteDraft, ok bool) {
	m := w.model
	var holders []*simCustomer
	for _, c := range m.customers {
		if len(c.accounts) > 0 {
			holders = append(holders, c)
		}
	}
	if len(holders) == 0 {
		return d, false
	}
	d.cust = simPick(w, holders)
	srcCur := simPick(w, sortedKeys(d.cust.accounts))
	d.src = d.cust.accounts[srcCur]
	var internal []string
	for _, c := range m.customers {
		for _, cur := range sortedKeys(c.accounts) {
			if c.accounts[cur] != d.src {
				internal = append(internal, c.accounts[cur]+"|"+cur)
			}
		}
	}
	if len(m.externals) > 0 && (len(internal) == 0 || w.rng.IntN(10) < 4) {
		d.ext = simPick(w, m.externals)
		d.dstCur = d.ext.cur
	} else if len(internal) > 0 {
		d.dst, d.dstCur, _ = strings.Cut(simPick(w, internal), "|")
	} else {
		return d, false
	}
	side, amount := payments.LockedSending, w.simAmount(w.available(d.src))
	if w.rng.IntN(10) < 3 {
		side = payments.LockedReceiving
	}
	dest := payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: d.dst}
	if d.ext != nil {
		dest.AccountID = d.ext.id
	}
	d.req = payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: d.src}, Destination: dest,
		LockedCurrencySide: side, LockedCurrencyAmount: amount, ImmediatelyExecute: immediate}
	return d, true
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (w *simWorld) opCreateQuote(immediate bool) {
	d, ok := w.draftQuote(immediate)
	if !ok {
		w.note("nothing to quote")
		return
	}
	w.createQuote(d)
}

// createQuote creates the drafted quote, checks the answer against the
// model and records it; the Response is what an idempotent retry replays.
func (w *simWorld) createQuote(d quoteDraft) simAnswer {
	srcCur := w.model.accounts[d.src].cur
	avail := w.available(d.src)
	q, err := w.eng.Quotes.Create(simCtx, d.req)
	code := errCode(err)
	cross := srcCur != d.dstCur
	switch {
	case !d.cust.terms:
		if code != payments.CodeEndUserTermsNotAccepted {
			w.failf("%v by a customer without accepted terms: got %q, want END_USER_TERMS_NOT_ACCEPTED", &d, code)
		}
	case code == payments.CodeAmountOutOfRange && cross && d.req.LockedCurrencyAmount < 1000:
		// too small to cover the fees or to convert
	case code == payments.CodeTransactionSizeLimitExceeded && w.oversize(&d, srcCur):
	case code == payments.CodeInsufficientFunds && d.req.ImmediatelyExecute:
		if d.req.LockedCurrencySide == "SENDING" {
			if d.req.LockedCurrencyAmount <= avail {
				w.failf("%v: INSUFFICIENT_FUNDS with %d available", &d, avail)
			}
			break
		}
		// Price the same request without executing: it must cost more than
		// the balance (the quote stays, pending, in the model).
		d.req.ImmediatelyExecute = false
		w.note("%v: INSUFFICIENT_FUNDS with %d available; quoting it to see its price", &d, avail)
		w.createQuote(d)
		if t := w.model.quotes[len(w.model.quotes)-1]; t.send <= avail {
			w.failf("%v was refused for INSUFFICIENT_FUNDS but costs %d of %d available", &d, t.send, avail)
		}
	case code != "":
		w.failf("%v: unexpected error %v", &d, err)
	}
	if code != "" {
		w.note("%v: %s", &d, code)
		w.check(false)
		return simResponse("", "", code)
	}
	t := &simTx{id: q.TransactionID, quoteID: q.ID, src: d.src, dst: d.dst, srcCur: srcCur, send: q.TotalSendingAmount,
		recv: q.TotalReceivingAmount, pfee: q.PlatformFeesIncluded, expires: q.ExpiresAt}
	t.label = fmt.Sprintf("quote %s->%s", srcCur, d.dstCur)
	if d.ext != nil {
		t.label += " external " + d.ext.suffix
		t.path, t.external = outgoingPath(false, false, d.ext.suffix), true
	} else {
		t.label += " internal"
		t.path = outgoingPath(true, false, "")
	}
	w.checkPricing(&d, q, srcCur)
	if d.req.ImmediatelyExecute {
		if q.TotalSendingAmount > avail {
			w.failf("%v executed %d with only %d available", &d, q.TotalSendingAmount, avail)
		}
		t.executed = true
		if string(q.Status) != string(t.answered()) {
			w.failf("%v: the executed quote is %s, want %s", &d, q.Status, t.answered())
		}
	} else if q.Status != payments.QuotePending {
		w.failf("%v: new quote is %s, want PENDING", &d, q.Status)
	}
	w.model.txs = append(w.model.txs, t)
	w.model.quotes = append(w.model.quotes, t)
	w.note("%v: %s send %d receive %d fees %d (platform %d) -> %s", &d, q.ID, q.TotalSendingAmount, q.TotalReceivingAmount, q.FeesIncluded, q.PlatformFeesIncluded, q.Status)
	w.check(false)
	return simResponse(q.ID, string(q.Status), "")
}

// simMaxAmount is the platform's default single-transaction maximum (a
// million major units) of the sim currencies, all with two decimals.
const simMaxAmount = 100_000_000

// oversize reports whether a drafted quote may exceed the maximum on
// either side (estimated at the sandbox rate, with a 10% margin).
func (w *simWorld) oversize(d *quoteDraft, srcCur string) bool {
	rate, err := sandbox.Rates{}.Rate(simCtx, srcCur, d.dstCur)
	w.must(err, "sandbox rate")
	r, _ := rate.Decimal().Float64()
	send, recv := float64(d.req.LockedCurrencyAmount), float64(d.req.LockedCurrencyAmount)
	if d.req.LockedCurrencySide == "SENDING" {
		recv = send / r
	} else {
		send = recv * r
	}
	return max(send, recv) > 0.9*simMaxAmount
}

// checkPricing checks a new quote's amounts: the locked side, no fees
// within a currency, the sandbox rate and the platform's USD fee (30 +
// 75 bps of the rest, half up) across currencies, and the conversion.
func (w *simWorld) checkPricing(d *quoteDraft, q *payments.Quote, srcCur string) {
	fail := func(format string, args ...any) {
		w.failf("%v priced as send %d receive %d fees %d platform %d rate %s: %s", d, q.TotalSendingAmount, q.TotalReceivingAmount,
			q.FeesIncluded, q.PlatformFeesIncluded, q.ExchangeRate.Decimal(), fmt.Sprintf(format, args...))
	}
	send, recv, fees := q.TotalSendingAmount, q.TotalReceivingAmount, q.FeesIncluded
	switch {
	case q.SendingCurrency.Code != srcCur || q.ReceivingCurrency.Code != d.dstCur:
		fail("currencies %s->%s", q.SendingCurrency.Code, q.ReceivingCurrency.Code)
	case d.req.LockedCurrencySide == "SENDING" && send != d.req.LockedCurrencyAmount,
		d.req.LockedCurrencySide == "RECEIVING" && recv != d.req.LockedCurrencyAmount:
		fail("the locked side is not the requested amount")
	case !q.CreatedAt.Equal(w.clock.Now()) || !q.ExpiresAt.After(q.CreatedAt):
		fail("created %s expires %s at %s", q.CreatedAt, q.ExpiresAt, w.clock.Now())
	case recv < 1 || fees < q.PlatformFeesIncluded || q.PlatformFeesIncluded < 0 || fees >= send:
		fail("amounts out of shape")
	}
	if srcCur == d.dstCur {
		if fees != 0 || send != recv {
			fail("a same-currency transfer carries no fee and no conversion")
		}
		return
	}
	rate, err := sandbox.Rates{}.Rate(simCtx, srcCur, d.dstCur)
	w.must(err, "sandbox rate")
	if !rate.Decimal().Equal(q.ExchangeRate.Decimal()) {
		fail("the sandbox rate is %s", rate.Decimal())
	}
	var wantFee int64
	if srcCur == "USD" {
		v := (send - simFee.FixedFee.Amount) * int64(simFee.VariableFeeBps)
		wantFee = simFee.FixedFee.Amount + (v+5000)/10000
	}
	if q.PlatformFeesIncluded != wantFee {
		fail("platform fee want %d", wantFee)
	}
	r, _ := rate.Decimal().Float64() // both sides have two decimals
	got := float64(send-fees) / r
	const eps = 1e-6
	if got < float64(recv)-eps || d.req.LockedCurrencySide == "SENDING" && got >= float64(recv)+1+eps ||
		d.req.LockedCurrencySide == "RECEIVING" && float64(send-fees-2)/r >= float64(recv)+eps {
		fail("(send-fees)/rate = %.4f", got)
	}
}

// simResponse encodes an operation's outcome as an idempotent call stores it.
func simResponse(id, status string, code payments.Code) simAnswer {
	if code != "" {
		return simAnswer{Status: 409, Body: []byte(code)}
	}
	return simAnswer{Status: 200, Body: []byte(id + " " + status)}
}

// pickQuote picks a quote, mostly one still waiting for execution.
func (w *simWorld) pickQuote() *simTx {
	now := w.clock.Now()
	var waiting []*simTx
	for _, t := range w.model.quotes {
		if t.state(now) == simPending {
			waiting = append(waiting, t)
		}
	}
	if len(waiting) > 0 && w.rng.IntN(10) < 8 {
		return simPick(w, waiting)
	}
	return simPick(w, w.model.quotes)
}

// expectExecute is the model's answer to executing t now: "" (success),
// CONFLICT, QUOTE_EXPIRED or INSUFFICIENT_FUNDS.
func (w *simWorld) expectExecute(t *simTx) payments.Code {
	switch now := w.clock.Now(); {
	case t.executed:
		return payments.CodeConflict
	case now.After(t.expires):
		return payments.CodeQuoteExpired
	case t.send > w.available(t.src):
		return payments.CodeInsufficientFunds
	}
	return ""
}

// acceptable reports whether got is the model's want, allowing the known
// bug's CONFLICT for a swept expired quote.
func (w *simWorld) acceptable(got, want payments.Code) bool {
	if knownBugExpiredQuoteIsConflict && want == payments.CodeQuoteExpired && got == payments.CodeConflict {
		simStats.knownBug("knownBugExpiredQuoteIsConflict", w.seed, w.kind)
		return true
	}
	return got == want
}

// applyExecute checks an execute's answer against want and records a
// success in the model.
func (w *simWorld) applyExecute(t *simTx, want payments.Code, q *payments.Quote, err error) simAnswer {
	got := errCode(err)
	if !w.acceptable(got, want) {
		w.failf("executing %s: got %q (%v), want %q (available %d, send %d, expires %s, now %s)", t, got, err, want,
			w.available(t.src), t.send, t.expires.Format(time.RFC3339Nano), w.clock.Now().Format(time.RFC3339Nano))
	}
	if got != "" {
		return simResponse("", "", got)
	}
	t.executed, t.at = true, 0
	if q.ID != t.quoteID || string(q.Status) != string(t.answered()) {
		w.failf("executing %s answered quote %s %s, want %s", t, q.ID, q.Status, t.answered())
	}
	return simResponse(q.ID, string(q.Status), "")
}

func (w *simWorld) opExecute() {
	t := w.pickQuote()
	want := w.expectExecute(t)
	q, err := w.eng.Quotes.Execute(simCtx, t.quoteID)
	w.applyExecute(t, want, q, err)
	w.note("executed %s: %q (model %q)", t, errCode(err), want)
	w.check(false)
}

// opExecuteIdempotent executes a quote through a handle with an
// idempotency key and retries the key, sometimes across a restart: the
// retry gives the first answer and moves nothing; a committed key reused
// for another quote is CONFLICT and changes nothing.
func (w *simWorld) opExecuteIdempotent() {
	t := w.pickQuote()
	want := w.expectExecute(t)
	k := payments.Idempotency{Scope: "POST /quotes/{id}/execute", Key: fmt.Sprintf("sim-%d", w.rng.Int64())}
	h, err := w.eng.WithIdempotency(k)
	if err != nil {
		w.failf("WithIdempotency: %v", err)
		return
	}
	q, err := h.Quotes.Execute(simCtx, t.quoteID)
	first := w.applyExecute(t, want, q, err)
	w.note("executed %s with key %s: %q (model %q)", t, k.Key, errCode(err), want)
	w.check(false)
	if w.rng.IntN(3) == 0 {
		w.restart()
	}
	h, _ = w.eng.WithIdempotency(k)
	q, err = h.Quotes.Execute(simCtx, t.quoteID)
	again := simResponse("", "", errCode(err))
	if err == nil {
		again = simResponse(q.ID, string(q.Status), "")
	}
	if string(again.Body) != string(first.Body) {
		w.failf("retrying key %s answered %q, first %q", k.Key, again.Body, first.Body)
	}
	if want == "" && !h.Replayed() {
		w.failf("retrying key %s ran again instead of replaying", k.Key)
	}
	w.check(false)
	if other := w.pickQuote(); want == "" && other != t {
		h, _ = w.eng.WithIdempotency(k)
		_, err := h.Quotes.Execute(simCtx, other.quoteID)
		if errCode(err) != payments.CodeConflict {
			w.failf("key %s reused for %s: got %q, want CONFLICT", k.Key, other, errCode(err))
		}
		w.check(false)
	}
}

// opExecuteTwice executes one quote from two goroutines at once: it
// executes at most once and the money moves once.
func (w *simWorld) opExecuteTwice() {
	t := w.pickQuote()
	want := w.expectExecute(t)
	var (
		wg   sync.WaitGroup
		qs   [2]*payments.Quote
		errs [2]error
	)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			qs[i], errs[i] = w.eng.Quotes.Execute(simCtx, t.quoteID)
		}()
	}
	wg.Wait()
	codes := []payments.Code{errCode(errs[0]), errCode(errs[1])}
	w.note("executed %s twice at once: %q (model %q)", t, codes, want)
	if want == "" {
		winner := -1
		for i, c := range codes {
			if c == "" {
				if winner >= 0 {
					w.failf("both concurrent executes of %s succeeded", t)
				}
				winner = i
			} else if c != payments.CodeConflict {
				w.failf("the losing concurrent execute of %s answered %q (%v), want CONFLICT", t, c, errs[i])
			}
		}
		if winner < 0 {
			w.failf("neither concurrent execute of %s succeeded: %q", t, codes)
		}
		w.applyExecute(t, "", qs[winner], nil)
	} else {
		for i := range 2 {
			w.applyExecute(t, want, qs[i], errs[i])
		}
	}
	w.check(false)
}

// pickExternal picks an external account whose owner holds its currency.
func (w *simWorld) pickExternal() (*simExternal, *simCustomer, string) {
	var ok []*simExternal
	for _, e := range w.model.externals {
		if w.customer(e.owner).accounts[e.cur] != "" {
			ok = append(ok, e)
		}
	}
	if len(ok) == 0 {
		return nil, nil, ""
	}
	e := simPick(w, ok)
	c := w.customer(e.owner)
	return e, c, c.accounts[e.cur]
}

func (w *simWorld) customer(id string) *simCustomer {
	for _, c := range w.model.customers {
		if c.id == id {
			return c
		}
	}
	w.failf("no customer %s in the model", id)
	return nil
}

// opTransferOut sends from a customer's account to its external account in
// the same currency (the sandbox rail's transfer suffixes).
func (w *simWorld) opTransferOut() {
	e, c, src := w.pickExternal()
	if e == nil {
		w.note("no external account in a held currency")
		return
	}
	avail := w.available(src)
	amount := w.simAmount(avail)
	tx, err := w.eng.Transactions.TransferOut(simCtx, payments.TransferOutRequest{SourceAccountID: src, DestinationAccountID: e.id, Amount: amount})
	code := errCode(err)
	w.note("transfer out %d from %s to %s (suffix %s): %q", amount, src, e.id, e.suffix, code)
	switch {
	case !c.terms:
		if code != payments.CodeEndUserTermsNotAccepted {
			w.failf("transfer out by a customer without terms: got %q, want END_USER_TERMS_NOT_ACCEPTED", code)
		}
	case amount > avail:
		if code != payments.CodeInsufficientFunds {
			w.failf("transfer out of %d with %d available: got %q (%v), want INSUFFICIENT_FUNDS", amount, avail, code, err)
		}
	case code != "":
		w.failf("transfer out of %d with %d available: unexpected error %v", amount, avail, err)
	default:
		t := &simTx{id: tx.ID, quoteID: tx.QuoteID, label: "transfer out " + e.cur + " " + e.suffix, src: src, srcCur: e.cur,
			send: amount, recv: amount, executed: true, external: true, path: outgoingPath(false, true, e.suffix)}
		if tx.Status != t.answered() {
			w.failf("%s answered %s, want %s", t, tx.Status, t.answered())
		}
		w.model.txs = append(w.model.txs, t)
	}
	w.check(false)
}

// opTransferIn pulls from a customer's external account into its internal
// account (the sandbox rail's pull suffixes).
func (w *simWorld) opTransferIn() {
	e, c, dst := w.pickExternal()
	if e == nil {
		w.note("no external account in a held currency")
		return
	}
	amount := 1 + w.rng.Int64N(300_000)
	tx, err := w.eng.Transactions.TransferIn(simCtx, payments.TransferInRequest{SourceAccountID: e.id, DestinationAccountID: dst, Amount: amount})
	code := errCode(err)
	w.note("transfer in %d from %s (suffix %s) to %s: %q", amount, e.id, e.suffix, dst, code)
	switch {
	case !c.terms:
		if code != payments.CodeEndUserTermsNotAccepted {
			w.failf("transfer in for a customer without terms: got %q, want END_USER_TERMS_NOT_ACCEPTED", code)
		}
	case code != "":
		w.failf("transfer in: unexpected error %v", err)
	default:
		t := &simTx{id: tx.ID, label: "transfer in " + e.cur + " " + e.suffix, incoming: true, dst: dst, srcCur: e.cur,
			send: amount, recv: amount, executed: true, path: incomingPath(e.suffix)}
		if tx.Status != t.answered() {
			w.failf("%s answered %s, want %s", t, tx.Status, t.answered())
		}
		w.model.txs = append(w.model.txs, t)
	}
	w.check(false)
}

// opCancel cancels a payment: only an outgoing one still PROCESSING can be,
// and it then fails with its money back.
func (w *simWorld) opCancel() {
	now := w.clock.Now()
	var processing []*simTx
	for _, t := range w.model.txs {
		if t.state(now) == simProcessing {
			processing = append(processing, t)
		}
	}
	t := simPick(w, w.model.txs)
	if len(processing) > 0 && w.rng.IntN(10) < 7 {
		t = simPick(w, processing)
	}
	cancellable := !t.incoming && t.state(now) == simProcessing
	tx, err := w.eng.Transactions.Cancel(simCtx, t.id)
	code := errCode(err)
	w.note("cancel %s (%s): %q", t, t.state(now), code)
	switch {
	case cancellable && code == payments.CodeTransactionNotCancellable && !w.swept:
		// The clock passed due work ProcessDue has not applied; the engine
		// judges by due time, so the payment may be settled already. The
		// check below requires it to have moved on along its path.
		got, gerr := w.eng.Transactions.Get(simCtx, t.id)
		w.must(gerr, "Transaction "+t.id)
		if got.Status == payments.TxProcessing {
			w.failf("cancelling %s (PROCESSING): %v, and it is still PROCESSING", t, err)
		}
		simStats.add("cancel judged by due time before the sweep")
	case cancellable && code != "":
		w.failf("cancelling %s (PROCESSING): %v", t, err)
	case cancellable:
		if tx.Status != payments.TxFailed || tx.Refund == nil || tx.Refund.Status != "COMPLETED" || tx.Refund.Reason != "USER_CANCELLATION" {
			w.failf("cancelled %s is %s with refund %+v, want FAILED, refund COMPLETED (USER_CANCELLATION)", t, tx.Status, tx.Refund)
		}
		t.path, t.at = []simState{simRefunded}, 0
		simStats.add("cancelled while PROCESSING")
	case code != payments.CodeTransactionNotCancellable:
		w.failf("cancelling %s (%s): got %q (%v), want TRANSACTION_NOT_CANCELLABLE", t, t.state(now), code, err)
	}
	w.check(false)
}

// opExpireQuote moves the clock just past a waiting quote's expiry: the
// sweep expires quote and transaction, and executing it is refused.
func (w *simWorld) opExpireQuote() {
	now := w.clock.Now()
	var waiting []*simTx
	for _, t := range w.model.quotes {
		if t.state(now) == simPending {
			waiting = append(waiting, t)
		}
	}
	if len(waiting) == 0 {
		w.note("no quote waiting")
		return
	}
	t := simPick(w, waiting)
	w.advance(t.expires.Sub(now) + time.Duration(1+w.rng.IntN(90_000))*time.Millisecond)
	w.note("let %s expire (expires %s, now %s)", t, t.expires.Format(time.RFC3339Nano), w.clock.Now().Format(time.RFC3339Nano))
	w.check(true)
	q, err := w.eng.Quotes.Execute(simCtx, t.quoteID)
	w.applyExecute(t, payments.CodeQuoteExpired, q, err)
	w.note("executing it: %q", errCode(err))
	w.check(false)
}

package cards

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes"
	"github.com/paygrid/payments/validate"
)

// Card activity tables: the money position of every card transaction (its
// hold, what settled and what is owed; the Transaction shows the public
// part), and delayed funding pulls due on the engine clock.
const (
	tableCardPositions = "card_positions"
	tableCardPullsDue  = "card_pulls_due"
)

// Ledger accounts of card money: the card network (where clearings settle
// and returns come from), and per funding account the receivable that
// carries what the network settled but the account could not pay.
const ledgerCardNetwork = accounts.ExternalPrefix + "card-network"

// cardReceivable is the ledger account of what the cardholder owes on
// funding account: an external account, so it may go negative (the debt)
// while the funding account never does.
func cardReceivable(account string) string {
	return accounts.ExternalPrefix + "card-receivable:" + account
}

// CardEventKind names a simulated card network event; its value is the
// last segment of the simulator's path.
type CardEventKind string

// Card network events the sandbox simulates.
const (
	CardAuthorization                CardEventKind = "authorization"
	CardClearing                     CardEventKind = "clearing"
	CardReturn                       CardEventKind = "return"
	CardBalanceInquiry               CardEventKind = "balance_inquiry"
	CardCreditAuthorization          CardEventKind = "credit_authorization"
	CardFinancialAuthorization       CardEventKind = "financial_authorization"
	CardFinancialCreditAuthorization CardEventKind = "financial_credit_authorization"
	CardAuthorizationAdvice          CardEventKind = "authorization_advice"
	CardCreditAuthorizationAdvice    CardEventKind = "credit_authorization_advice"
	CardReturnReversal               CardEventKind = "return_reversal"
)

// CardEventKinds lists every simulated event.
var CardEventKinds = []CardEventKind{CardAuthorization, CardClearing, CardReturn, CardBalanceInquiry,
	CardCreditAuthorization, CardFinancialAuthorization, CardFinancialCreditAuthorization,
	CardAuthorizationAdvice, CardCreditAuthorizationAdvice, CardReturnReversal}

// authorizes reports whether k opens a new card transaction (the
// authorization family and the balance inquiry); the others act on one.
func (k CardEventKind) authorizes() bool {
	switch k {
	case CardClearing, CardReturn, CardAuthorizationAdvice, CardReturnReversal:
		return false
	}
	return true
}

// credits reports whether k is a credit to the card.
func (k CardEventKind) credits() bool {
	return k == CardCreditAuthorization || k == CardFinancialCreditAuthorization || k == CardCreditAuthorizationAdvice
}

// CardSimulation is the body of a sandbox card simulator: the members its
// kind takes (reference SandboxCard*Request).
type CardSimulation struct {
	Amount            *int64               `json:"amount,omitempty"`
	Currency          *CurrencyCode        `json:"currency,omitempty"`
	Merchant          *quotes.CardMerchant `json:"merchant,omitempty"`
	CardTransactionID string               `json:"cardTransactionId,omitempty"`
}

// CurrencyCode names a currency in a request ({"code": "USD"}).
type CurrencyCode struct {
	Code string `json:"code"`
}

// CardSimulationResult is the answer of a simulator: the issuer's token
// (all the reference's 202 body shows), and for the engine's callers the
// card transaction the event created or changed, or the reason an
// authorization was declined (no transaction is recorded for a decline).
type CardSimulationResult struct {
	IssuerTransactionToken string                  `json:"issuerTransactionToken"`
	Transaction            *quotes.CardTransaction `json:"transaction,omitempty"`
	Decline                string                  `json:"decline,omitempty"`
}

// cardPosition is the stored money state of a card transaction.
type cardPosition struct {
	Position
	CardID    string `json:"cardId"`
	AccountID string `json:"accountId"`
	Currency  string `json:"currency"`
}

// showPosition copies the position's public part into x, stamping its last
// event at now.
func showPosition(x *quotes.CardTransaction, p *cardPosition, now time.Time) {
	x.Status, x.Direction = p.Status, p.Direction
	x.AuthorizedAmount = accounts.AmountOf(p.Currency, p.Authorized)
	settled, refunded := accounts.AmountOf(p.Currency, p.Settled), accounts.AmountOf(p.Currency, p.Refunded)
	x.SettledAmount, x.RefundedAmount = &settled, &refunded
	x.PullSummary = quotes.CardPullSummary{Count: p.Pulls, TotalAmount: p.PullTotal}
	if p.PendingPull {
		x.PullSummary.PendingCount = 1
	}
	x.RefundSummary = quotes.CardSummary{Count: p.Returns, TotalAmount: p.Refunded}
	x.SettlementSummary = quotes.CardSummary{Count: p.Clearings, TotalAmount: p.Settled}
	at := now
	x.LastEventAt, x.UpdatedAt = &at, now
}

// Simulate runs a sandbox card network event on card cardID (POST
// /sandbox/cards/{id}/simulate/<kind>). The issuer's simulator answers
// first (its token and the steering of the merchant descriptor's suffix);
// then one transaction applies the event:
//
//   - the authorization family and the balance inquiry are decided on the
//     card (FROZEN declines CARD_PAUSED, a card not ACTIVE declines), the
//     network's answer, the spending limit and the funds of the first
//     funding source that covers the amount; an approval opens a card
//     transaction that holds (authorization), pulls and settles (financial
//     authorization) or awaits its credit (credit authorizations);
//   - clearing, return, authorization advice and return reversal act on
//     an existing card transaction of the card by the cards package's
//     arithmetic (an event that does not apply is INVALID_INPUT).
//
// Money moves through the ledger in the same transaction; a settlement
// the funding source cannot pay is owed by the cardholder (a receivable)
// and the transaction is an EXCEPTION. Each change emits
// CARD_TRANSACTION.<status>. Outside the sandbox it is FORBIDDEN.
//
// Other refusals: NOT_IMPLEMENTED without an issuer or when the issuer has
// no sandbox network (no CardSimulator); an unknown kind or card NOT_FOUND;
// a body that does not fit the kind, or a currency other than the card's,
// INVALID_INPUT; a card transaction of another card TRANSACTION_NOT_FOUND;
// a card without an active funding source FUNDING_SOURCE_INELIGIBLE. A
// decline is not an error: the result carries its reason.
//
// A request repeated under an idempotency key replays its recorded answer
// before the simulator is asked; otherwise the simulator is asked outside
// every transaction, before the transaction that records the outcome.
func (c Service) Simulate(ctx context.Context, cardID string, kind CardEventKind, in CardSimulation) (*CardSimulationResult, error) {
	return engine.Run(ctx, c.e, simulateCard, cardSimulation{cardID, kind, in})
}

// cardSimulation is a Simulate request: the card, the event's kind and
// its body.
type cardSimulation struct {
	cardID string
	kind   CardEventKind
	in     CardSimulation
}

// MarshalJSON fingerprints the request for its idempotency key as the
// triple [card id, kind, body].
func (s cardSimulation) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{s.cardID, s.kind, s.in})
}

// simulated is what a simulation gathers before its transaction: the event
// and the sandbox network's outcome.
type simulated struct {
	ev      CardEvent
	outcome CardEventOutcome
}

// simulateCard is Service.Simulate's operation.
var simulateCard = engine.Op[cardSimulation, *CardSimulationResult, simulated]{Area: "cards", Name: "Simulate",
	Guard: func(e *engine.Handle) error {
		if err := e.RequireSandbox(); err != nil {
			return err
		}
		iss, err := issuerOf(e)
		if err != nil {
			return err
		}
		if _, ok := iss.(CardSimulator); !ok {
			return engine.Errorf(engine.CodeNotImplemented, "the card issuer has no sandbox network")
		}
		return nil
	},
	Validate: func(s *cardSimulation) error { return checkSimulation(s.kind, s.in) },
	Prefetch: func(ctx context.Context, e *engine.Handle, s *cardSimulation, f *simulated, _ error) error {
		iss, err := issuerOf(e)
		if err != nil {
			return err
		}
		f.ev = CardEvent{Kind: s.kind, CardID: s.cardID, CardTransactionID: s.in.CardTransactionID, Merchant: s.in.Merchant}
		if s.in.Amount != nil {
			f.ev.Amount = *s.in.Amount
		}
		f.outcome, err = iss.(CardSimulator).SimulateCardEvent(ctx, f.ev)
		return err
	},
	Decide: func(t *engine.Txn, s *cardSimulation, f *simulated) (*CardSimulationResult, error) {
		out := &CardSimulationResult{IssuerTransactionToken: f.outcome.Token}
		card, err := Get(t, s.cardID)
		if err != nil {
			return nil, err
		}
		if s.kind.authorizes() {
			err = cardAuthorization(t, card, f.ev, s.in, f.outcome, out)
		} else {
			err = cardReconcile(t, card, f.ev, out)
		}
		if err != nil {
			return nil, err
		}
		return out, nil
	}}

// checkSimulation validates a simulator body for its kind, naming every
// bad member.
func checkSimulation(kind CardEventKind, in CardSimulation) error {
	var fe validate.Errors
	known := false
	for _, k := range CardEventKinds {
		known = known || k == kind
	}
	if !known {
		return engine.Errorf(engine.CodeNotFound, "no card simulator %q", kind)
	}
	amount := func(min int64) {
		switch {
		case in.Amount == nil:
			fe.Missing("amount")
		case *in.Amount < min:
			fe.Add("amount", &validate.Constraint{}, "amount must be at least %d", min)
		}
	}
	merchant := func() {
		if in.Merchant == nil {
			fe.Missing("merchant")
		} else {
			fe.Required("merchant.descriptor", in.Merchant.Descriptor)
		}
	}
	switch kind {
	case CardBalanceInquiry:
		merchant()
	case CardClearing:
		fe.Required("cardTransactionId", in.CardTransactionID)
		amount(0)
	case CardReturn, CardAuthorizationAdvice:
		fe.Required("cardTransactionId", in.CardTransactionID)
		amount(1)
	case CardReturnReversal:
		fe.Required("cardTransactionId", in.CardTransactionID)
	default:
		amount(1)
		if in.Currency == nil {
			fe.Missing("currency")
		} else {
			fe.Required("currency.code", in.Currency.Code)
		}
		merchant()
	}
	return engine.Invalid(fe.Err())
}

// cardAuthorization decides an authorization-family event and, approved,
// records its card transaction. The card's state is checked first (FROZEN
// declines CARD_PAUSED whatever the network says), then the network's
// decline, then the rules (spending limit, funds). A declined event writes
// nothing but its idempotency record.
func cardAuthorization(t *engine.Txn, card *Card, ev CardEvent, in CardSimulation, outcome CardEventOutcome, out *CardSimulationResult) error {
	if in.Currency != nil && in.Currency.Code != card.Currency {
		var fe validate.Errors
		fe.Add("currency.code", nil, "the card transacts in %s, not %s", card.Currency, in.Currency.Code)
		return engine.Invalid(fe)
	}
	decline := ""
	switch {
	case card.State == Frozen:
		decline = DeclineCardPaused
	case card.State != Active:
		decline = DeclineCardNotActive
	case outcome.Decline != "":
		decline = outcome.Decline
	}
	if decline != "" {
		out.Decline = decline
		return nil
	}
	need := ev.Amount
	if ev.Kind.credits() {
		need = 0 // a credit lands on the first source
	}
	acct, available, err := pickFundingSource(t, card, need)
	if err != nil {
		return err
	}
	var pos Position
	var mv Movement
	switch ev.Kind {
	case CardCreditAuthorization, CardCreditAuthorizationAdvice, CardFinancialCreditAuthorization:
		pos, mv = CreditAuthorize(ev.Amount, ev.Kind == CardFinancialCreditAuthorization, outcome.ConfirmFailed)
	case CardFinancialAuthorization:
		pos, mv, decline = FinancialAuthorize(ev.Amount, available, card.MaxSpendPerTransaction, outcome.ConfirmFailed)
	default: // authorization, balance inquiry (amount 0)
		pos, mv, decline = Authorize(ev.Amount, available, card.MaxSpendPerTransaction, outcome.ConfirmFailed)
	}
	if decline != "" {
		out.Decline = decline
		return nil
	}
	holder, err := customers.Get(t, card.CardholderID)
	if err != nil {
		return err
	}
	pos.PendingPull = outcome.PullDelay > 0 && (mv.Hold > 0 || mv.Pull > 0)
	p := &cardPosition{Position: pos, CardID: card.ID, AccountID: acct, Currency: card.Currency}
	x := &quotes.CardTransaction{Type: quotes.TxCard, ID: t.NewID("CardTransaction"), CardID: card.ID, CustomerID: holder.ID,
		PlatformCustomerID: holder.PlatformCustomerID, IssuerTransactionToken: outcome.Token, Merchant: *in.Merchant,
		AccountID: acct, AuthorizedAt: t.Now, CreatedAt: t.Now}
	showPosition(x, p, t.Now)
	if err := moveCardMoney(t, x.ID, p, mv); err != nil {
		return err
	}
	if err := engine.PutJSON(t, tableCardPositions, x.ID, p); err != nil {
		return err
	}
	if err := quotes.InsertTransaction(t, x.AsTransaction()); err != nil {
		return err
	}
	out.Transaction = x
	if pos.PendingPull {
		// The authorization is announced when its pull confirms.
		return t.Put(tableCardPullsDue, engine.DueKey(t.Now.Add(outcome.PullDelay), x.ID), []byte(x.ID))
	}
	return emitCardTx(t, x)
}

// pickFundingSource returns the card's first ACTIVE funding source (in
// priority order) whose available funds cover amount, or, when none does,
// the first ACTIVE one (whose funds then decide the decline).
func pickFundingSource(t *engine.Txn, card *Card, amount int64) (string, int64, error) {
	first, firstAvail := "", int64(0)
	for _, id := range card.FundingSources {
		a, err := accounts.Internal(t, id)
		if engine.CodeOf(err) == engine.CodeAccountNotFound || (err == nil && a.Status != "ACTIVE") {
			continue
		}
		if err != nil {
			return "", 0, err
		}
		avail, err := engine.Balance(t, a.ID, a.Currency)
		if err != nil {
			return "", 0, err
		}
		if avail >= amount {
			return a.ID, avail, nil
		}
		if first == "" {
			first, firstAvail = a.ID, avail
		}
	}
	if first == "" {
		return "", 0, engine.Errorf(CodeFundingSourceIneligible, "card %s has no active funding source", card.ID)
	}
	return first, firstAvail, nil
}

// cardReconcile applies a clearing, return, advice or return reversal to
// an existing card transaction of card.
func cardReconcile(t *engine.Txn, card *Card, ev CardEvent, out *CardSimulationResult) error {
	tx, err := quotes.GetTransaction(t, ev.CardTransactionID)
	if err == nil && (tx.Card == nil || tx.Card.CardID != card.ID) {
		err = engine.Errorf(engine.CodeTransactionNotFound, "card %s has no card transaction %s", card.ID, ev.CardTransactionID)
	}
	if err != nil {
		return err
	}
	var p cardPosition
	if err := engine.GetJSON(t, tableCardPositions, tx.ID, &p); err != nil {
		return err
	}
	available, err := engine.Balance(t, p.AccountID, p.Currency)
	if err != nil {
		return err
	}
	var pos Position
	var mv Movement
	switch ev.Kind {
	case CardClearing:
		pos, mv, err = Clear(p.Position, ev.Amount, available)
	case CardReturn:
		pos, mv, err = Return(p.Position, ev.Amount)
	case CardAuthorizationAdvice:
		pos, mv, err = Advise(p.Position, ev.Amount, available)
	default:
		pos, mv, err = ReverseReturn(p.Position, available)
	}
	if errors.Is(err, ErrNotApplicable) {
		return engine.Errorf(engine.CodeInvalidInput, "%s", strings.TrimPrefix(err.Error(), ErrNotApplicable.Error()+": "))
	}
	if err != nil {
		return err
	}
	p.Position = pos
	if err := moveCardMoney(t, tx.ID, &p, mv); err != nil {
		return err
	}
	if err := engine.PutJSON(t, tableCardPositions, tx.ID, &p); err != nil {
		return err
	}
	x := tx.Card
	showPosition(x, &p, t.Now)
	out.Transaction = x
	return saveCardTx(t, x)
}

// saveCardTx stores a changed card transaction and emits its event.
func saveCardTx(t *engine.Txn, x *quotes.CardTransaction) error {
	if err := quotes.SaveCardTransaction(t, x); err != nil {
		return err
	}
	return emitCardTx(t, x)
}

// moveCardMoney posts the ledger entry of one card event's movement and
// announces the funding account's new balance when it changed. The legs,
// one per non-zero member of mv, always balance: each moves one amount
// between two accounts. The funding account's legs are checked by the
// ledger like any other (INSUFFICIENT_FUNDS rolls the event back), which
// the rules' use of the balance read in the same transaction prevents.
func moveCardMoney(t *engine.Txn, ref string, p *cardPosition, mv Movement) error {
	acct, cur := p.AccountID, p.Currency
	held := accounts.Held(acct)
	var legs [][]engine.Posting
	add := func(from, to string, n int64) {
		if n > 0 {
			legs = append(legs, accounts.Transfer(from, to, cur, n))
		}
	}
	add(acct, held, mv.Hold)
	add(held, acct, mv.Release)
	add(held, ledgerCardNetwork, mv.Capture)
	add(acct, ledgerCardNetwork, mv.Pull)
	add(cardReceivable(acct), ledgerCardNetwork, mv.Shortfall)
	add(ledgerCardNetwork, acct, mv.Credit)
	add(ledgerCardNetwork, cardReceivable(acct), mv.Repay)
	if len(legs) == 0 {
		return nil
	}
	if err := engine.PostEntry(t, ref, legs...); err != nil {
		return err
	}
	if mv.Hold+mv.Release+mv.Capture+mv.Pull+mv.Credit == 0 {
		return nil
	}
	return quotes.CreditEvent(t, acct)
}

// applyCardPullDue confirms a delayed funding pull: the transaction's
// pending pull count drops to zero and it is announced.
func applyCardPullDue(t *engine.Txn, _ string, v []byte) (bool, error) {
	id := string(v)
	var p cardPosition
	if err := engine.GetJSON(t, tableCardPositions, id, &p); err != nil {
		return false, err
	}
	if !p.PendingPull {
		return false, nil
	}
	p.PendingPull = false
	if err := engine.PutJSON(t, tableCardPositions, id, &p); err != nil {
		return false, err
	}
	tx, err := quotes.GetTransaction(t, id)
	if err != nil {
		return false, err
	}
	showPosition(tx.Card, &p, t.Now)
	return true, saveCardTx(t, tx.Card)
}

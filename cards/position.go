package cards

import (
	"errors"
	"fmt"

	"github.com/paygrid/payments/quotes"
)

// TxStatus is a card transaction's status (reference CardTransactionStatus).
// Card transactions are read with the other transactions, so the status is
// the transactions' vocabulary (quotes.CardTxStatus).
type TxStatus = quotes.CardTxStatus

// Card transaction statuses.
const (
	Authorized       = quotes.CardAuthorized       // approved, funds held, nothing cleared yet
	PartiallySettled = quotes.CardPartiallySettled // some clearings posted, more expected
	Settled          = quotes.CardSettled          // closed against the funding source
	Refunded         = quotes.CardRefunded         // the settled amount was returned in full
	Exception        = quotes.CardException        // the network settled but a pull from the funding source failed
)

// Direction of a card transaction's money, seen from the cardholder: the
// transactions' vocabulary (quotes.TxDirection).
const (
	Debit  = quotes.TxDebit  // purchases: money leaves the funding source
	Credit = quotes.TxCredit // merchant credits: money arrives
)

// Decline reasons of an authorization that is refused (no transaction is
// recorded for it).
const (
	DeclineInsufficientFunds = "INSUFFICIENT_FUNDS"
	DeclineCardPaused        = "CARD_PAUSED"
	DeclineSpendLimit        = "SPEND_LIMIT_EXCEEDED"
	DeclineCardNotActive     = "CARD_NOT_ACTIVE"
)

// Position is the money state of one card transaction: what was
// authorized, is still held, settled, refunded and is owed, with the
// counters its summaries show. Amounts are minor units of the card's
// currency.
type Position struct {
	Direction   quotes.TxDirection `json:"direction"`
	Status      TxStatus           `json:"status"`
	Authorized  int64              `json:"authorized"`
	Held        int64              `json:"held"`    // still reserved on the funding source for this authorization
	Settled     int64              `json:"settled"` // cleared in total
	Refunded    int64              `json:"refunded"`
	Owed        int64              `json:"owed"` // network settlements the funding source could not pay
	Open        bool               `json:"open"` // still accepts clearings and advices
	Pulls       int                `json:"pulls"`
	PullTotal   int64              `json:"pullTotal"`
	Clearings   int                `json:"clearings"`
	Returns     int                `json:"returns"`
	PendingPull bool               `json:"pendingPull,omitempty"` // a pull waits for confirmation
}

// Movement is the money one event moves; Service.Simulate turns each
// non-zero member into one balanced leg of the event's ledger entry
// (moveCardMoney). Every member is zero or positive, and the directions
// below are fixed, so a rule can never move money the wrong way.
type Movement struct {
	Hold      int64 // funding source → its held funds
	Release   int64 // held funds → funding source
	Capture   int64 // held funds → card network
	Pull      int64 // funding source → card network (beyond the hold)
	Shortfall int64 // cardholder's receivable → card network (a pull that failed)
	Credit    int64 // card network → funding source
	Repay     int64 // card network → cardholder's receivable (a credit that first settles what is owed)
}

// ErrNotApplicable means the event does not apply to the transaction in
// its current state or for that amount (the simulators answer it as
// INVALID_INPUT with the rule's message).
var ErrNotApplicable = errors.New("cards: event does not apply to this card transaction")

// notApplicable wraps ErrNotApplicable with the case's message.
func notApplicable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotApplicable, fmt.Sprintf(format, args...))
}

// Authorize decides a debit authorization of amount against a funding
// source with available funds, on a card whose per-transaction limit is
// max. A declined authorization returns its reason and moves nothing. An
// approved one holds the amount (one pull); confirmFailed (the issuer
// reported the pull's confirmation FAILED) makes it an EXCEPTION that still
// holds the funds and stays open for its clearings. amount 0 is a balance
// inquiry: approved with nothing held.
func Authorize(amount, available int64, max *int64, confirmFailed bool) (Position, Movement, string) {
	switch {
	case !WithinSpendLimit(amount, max):
		return Position{}, Movement{}, DeclineSpendLimit
	case amount > available:
		return Position{}, Movement{}, DeclineInsufficientFunds
	}
	p := Position{Direction: Debit, Status: Authorized, Authorized: amount, Held: amount, Open: true}
	if amount > 0 {
		p.Pulls, p.PullTotal = 1, amount
	}
	if confirmFailed {
		p.Status = Exception
	}
	return p, Movement{Hold: amount}, ""
}

// FinancialAuthorize decides a single-message debit (authorization and
// clearing at once): the amount is pulled and settled, nothing held.
func FinancialAuthorize(amount, available int64, max *int64, confirmFailed bool) (Position, Movement, string) {
	p, _, decline := Authorize(amount, available, max, confirmFailed)
	if decline != "" {
		return p, Movement{}, decline
	}
	p.Held, p.Open, p.Settled, p.Clearings = 0, false, amount, 1
	if p.Status != Exception {
		p.Status = Settled
	}
	return p, Movement{Pull: amount}, ""
}

// CreditAuthorize records a credit authorization (a merchant's credit to
// the card, or its advice): nothing moves until it clears. financial
// (a single-message credit) credits at once and settles.
func CreditAuthorize(amount int64, financial, confirmFailed bool) (Position, Movement) {
	p := Position{Direction: Credit, Status: Authorized, Authorized: amount, Open: true}
	var mv Movement
	if financial {
		p.Open, p.Settled, p.Clearings, p.Status = false, amount, 1, Settled
		mv.Credit = amount
	}
	if confirmFailed {
		p.Status = Exception
	}
	return p, mv
}

// Clear applies a clearing of amount. The transaction must be open: an
// AUTHORIZED or PARTIALLY_SETTLED authorization, or an EXCEPTION one that
// still awaits its clearings.
//
// A debit clearing captures from the hold. Less than the hold leaves the
// rest held for later clearings (PARTIALLY_SETTLED); the hold or more
// settles the transaction, and what exceeds the hold (over-authorization:
// tips, fuel) is a second, post-hoc pull from available funds. When the
// funding source cannot pay it, the network is paid anyway (it already
// settled) from the cardholder's receivable, and the transaction is an
// EXCEPTION. amount 0 is the authorization's expiry: the hold is released
// and nothing posts.
//
// A credit clearing credits amount (0 lets it lapse) and settles.
func Clear(p Position, amount, available int64) (Position, Movement, error) {
	if !p.Open {
		return p, Movement{}, notApplicable("a %s card transaction cannot be cleared", p.Status)
	}
	if amount < 0 {
		return p, Movement{}, notApplicable("a clearing amount cannot be negative")
	}
	var mv Movement
	if p.Direction == Credit {
		mv.Credit = amount
		p.Repay(&mv)
		p.Settled += amount
		if amount > 0 {
			p.Clearings++
		}
		p.Open = false
		if p.Status != Exception {
			p.Status = Settled
		}
		return p, mv, nil
	}
	if amount == 0 {
		mv.Release, p.Held, p.Open = p.Held, 0, false
		if p.Status != Exception {
			p.Status = Settled
		}
		return p, mv, nil
	}
	p.Clearings++
	p.Settled += amount
	if amount < p.Held {
		mv.Capture, p.Held = amount, p.Held-amount
		if p.Status != Exception {
			p.Status = PartiallySettled
		}
		return p, mv, nil
	}
	mv.Capture = p.Held
	excess := amount - p.Held
	p.Held, p.Open = 0, false
	if p.Status != Exception {
		p.Status = Settled
	}
	p.pull(&mv, excess, available)
	return p, mv, nil
}

// pull takes amount from available funds (a post-hoc pull), or, when they
// do not cover it, books it as owed and marks the transaction an EXCEPTION.
// It is all or nothing: a pull is never split between the account and the
// receivable, so the owed amount is exactly what a later credit repays.
func (p *Position) pull(mv *Movement, amount, available int64) {
	if amount <= 0 {
		return
	}
	if amount <= available {
		mv.Pull += amount
		p.Pulls++
		p.PullTotal += amount
		return
	}
	mv.Shortfall += amount
	p.Owed += amount
	p.Status = Exception
}

// Repay splits the credit mv.Credit: what the cardholder owes on this
// transaction is settled first (mv.Repay), the rest reaches the funding
// source.
func (p *Position) Repay(mv *Movement) {
	r := min(mv.Credit, p.Owed)
	mv.Repay, mv.Credit, p.Owed = r, mv.Credit-r, p.Owed-r
}

// Advise re-sizes an open debit authorization to total (an authorization
// advice: the network already approved it, so it cannot be declined). A
// smaller total releases the difference; a larger one holds it from
// available funds, and when they do not cover it the advice cannot be
// funded: the transaction becomes an EXCEPTION, the hold stays as it was,
// and a later clearing pulls (or books as owed) what the hold lacks. The
// total cannot fall below what already cleared.
func Advise(p Position, total, available int64) (Position, Movement, error) {
	switch {
	case p.Direction != Debit || !p.Open || (p.Status != Authorized && p.Status != PartiallySettled):
		return p, Movement{}, notApplicable("an authorization advice needs an AUTHORIZED or PARTIALLY_SETTLED authorization, not %s", p.Status)
	case total <= 0:
		return p, Movement{}, notApplicable("the advised total must be positive")
	case total < p.Settled:
		return p, Movement{}, notApplicable("the advised total %d is below the %d already cleared", total, p.Settled)
	}
	var mv Movement
	want := total - p.Settled // what the hold should now cover
	switch {
	case want < p.Held:
		mv.Release = p.Held - want
		p.Held = want
	case want > p.Held:
		more := want - p.Held
		if more <= available {
			mv.Hold = more
			p.Held = want
			p.Pulls++
			p.PullTotal += more
		} else {
			p.Status = Exception
		}
	}
	p.Authorized = total
	return p, mv, nil
}

// Return applies a merchant's return of amount against a settled debit
// transaction: it credits the funding source (after settling what is owed
// on the transaction) and makes the transaction REFUNDED once everything
// settled came back; a partial return keeps its status. amount must be
// positive and at most the settled amount not yet refunded.
func Return(p Position, amount int64) (Position, Movement, error) {
	net := p.Settled - p.Refunded
	switch {
	case p.Direction != Debit || p.Settled == 0:
		return p, Movement{}, notApplicable("a return needs a debit card transaction with a settled clearing")
	case amount <= 0:
		return p, Movement{}, notApplicable("the return amount must be positive")
	case amount > net:
		return p, Movement{}, notApplicable("the return amount %d exceeds the %d settled and not yet refunded", amount, net)
	}
	mv := Movement{Credit: amount}
	p.Repay(&mv)
	p.Refunded += amount
	p.Returns++
	if p.Refunded == p.Settled && p.Status != Exception {
		p.Status = Refunded
	}
	return p, mv, nil
}

// ReverseReturn reverses the returns of a REFUNDED transaction: the refunded
// amount is pulled back from available funds (booked as owed, and an
// EXCEPTION, when they do not cover it) and the transaction is SETTLED again.
func ReverseReturn(p Position, available int64) (Position, Movement, error) {
	if p.Status != Refunded {
		return p, Movement{}, notApplicable("a return reversal needs a REFUNDED card transaction, not %s", p.Status)
	}
	var mv Movement
	amount := p.Refunded
	p.Refunded = 0
	p.Status = Settled
	p.pull(&mv, amount, available)
	return p, mv, nil
}

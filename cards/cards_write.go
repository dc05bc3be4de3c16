package cards

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// tableCardActivations holds delayed activations due on the engine clock
// (engine.DueKey(time, card id) -> card id).
const tableCardActivations = "card_activations_due"

// Create issues a card (POST /cards). The request is validated field by
// field; a request repeated under an idempotency key replays its recorded
// answer without asking the issuer again; otherwise the issuer is asked
// before the transaction (CardIssuer) for the card id cardID names; then,
// in one transaction, the cardholder must be APPROVED
// (CARDHOLDER_KYC_NOT_APPROVED), every funding source must be one of the
// cardholder's active internal accounts in one card-eligible currency
// (FUNDING_SOURCE_INELIGIBLE), and the live-card limits must leave a slot
// (CARD_LIMIT_REACHED). The card is stored in the state the issuer's answer
// gives it (ACTIVE at once in the sandbox, PROCESSING while activation is
// delayed or pending, CLOSED with ISSUER_REJECTED) and every transition
// out of PROCESSING emits CARD.STATE_CHANGE.
//
// Other refusals: NOT_IMPLEMENTED without an issuer; an unknown cardholder
// INVALID_INPUT (cardholderId); a static 3-D Secure password on a card not
// in EUR INVALID_INPUT; whatever the issuer answers, as is. A card the
// issuer rejects is still created (CLOSED, ISSUER_REJECTED) and takes no
// live-card slot.
func (c Service) Create(ctx context.Context, req CreateCardRequest) (*Card, error) {
	return engine.Run(ctx, c.e, createCard, req)
}

// issuedCard is what a card create gathers before its transaction: the
// card's id and platform id, and the issuer's answer.
type issuedCard struct {
	id, platformCardID string
	issue              CardIssue
}

// createCard is Service.Create's operation. A repeated request replays
// its answer before anything reaches the issuer, and a retry of one that
// never committed asks for the same card id (cardID). That is the simpler
// correct design: issuing as an intent after commit would store the card
// before the issuer answered, while its answer (ACTIVE at once, delayed,
// pending or rejected; brand, last4, expiry) is part of the create's
// answer and of the stored card. The answer (with the id named in
// Prefetch) is what a retry with the same idempotency key replays.
var createCard = engine.Op[CreateCardRequest, *Card, issuedCard]{Area: "cards", Name: "Create", Guard: needIssuer,
	Validate: checkCreate, Prefetch: issueCard, Decide: storeCard}

// checkCreate checks a card request's fields, every problem at once.
func checkCreate(req *CreateCardRequest) error {
	var fe validate.Errors
	fe.Required("cardholderId", req.CardholderID)
	if fe.Required("form", req.Form) {
		fe.Enum("form", req.Form, "VIRTUAL")
	}
	fe.MaxLen("platformCardId", req.PlatformCardID, 255)
	fe.MaxLen("threeDSecurePassword", req.ThreeDSecurePassword, 255)
	checkFundingList(&fe, req.FundingSources)
	if req.MaxSpendPerTransaction != nil && *req.MaxSpendPerTransaction < 1 {
		fe.Add("maxSpendPerTransaction", &validate.Constraint{}, "maxSpendPerTransaction must be at least 1")
	}
	return engine.Invalid(fe.Err())
}

// issueCard asks the issuer, outside every transaction, whether the
// funding sources may fund a card, then for the card itself.
func issueCard(ctx context.Context, e *engine.Handle, req *CreateCardRequest, f *issuedCard, _ error) error {
	iss, err := issuerOf(e)
	if err != nil {
		return err
	}
	if err := checkIssuerSources(ctx, iss, req.FundingSources); err != nil {
		return err
	}
	id, err := cardID(ctx, e, *req)
	if err != nil {
		return err
	}
	f.id, f.platformCardID = id, req.PlatformCardID
	if f.platformCardID == "" {
		f.platformCardID = "card-" + id[len("Card:"):]
	}
	f.issue, err = iss.IssueCard(ctx, CardIssueRequest{CardID: id, CardholderID: req.CardholderID, PlatformCardID: req.PlatformCardID,
		Form: req.Form, ThreeDSecurePassword: req.ThreeDSecurePassword})
	return err
}

// storeCard stores the card the issuer issued, once the cardholder, the
// funding sources and the live-card limits allow it.
func storeCard(t *engine.Txn, req *CreateCardRequest, f *issuedCard) (*Card, error) {
	id, platformCardID, issue := f.id, f.platformCardID, f.issue
	limits := cardsSlot.Of(t.Handle).Limits
	holder, err := customers.Get(t, req.CardholderID)
	if err != nil {
		if engine.CodeOf(err) != engine.CodeCustomerNotFound {
			return nil, err
		}
		var fe validate.Errors
		fe.Add("cardholderId", nil, "customer %s not found", req.CardholderID)
		return nil, engine.Invalid(fe)
	}
	if holder.Status() != customers.KYCApproved {
		return nil, engine.Errorf(CodeCardholderKycNotApproved, "cardholder %s has KYC status %s; a card needs APPROVED", holder.ID, orNone(string(holder.Status())))
	}
	currency, err := fundingCurrency(t, holder.ID, "", req.FundingSources)
	if err != nil {
		return nil, err
	}
	if req.ThreeDSecurePassword != "" && currency != "EUR" {
		var fe validate.Errors
		fe.Add("threeDSecurePassword", nil, "a static 3-D Secure password is accepted only for EUR card programs")
		return nil, engine.Invalid(fe)
	}
	live, err := cardCount(t, "live")
	if err != nil {
		return nil, err
	}
	held, err := cardCount(t, "holder|"+holder.ID)
	if err != nil {
		return nil, err
	}
	if err := limits.CheckIssue(live, held); err != nil {
		return nil, &engine.Error{Code: CodeCardLimitReached, Message: strings.TrimPrefix(err.Error(), "cards: ")}
	}
	card := &Card{ID: id, CardholderID: holder.ID, PlatformCardID: platformCardID, State: Processing, Brand: issue.Brand,
		Form: req.Form, Last4: issue.Last4, ExpMonth: issue.ExpMonth, ExpYear: issue.ExpYear,
		FundingSources: req.FundingSources, MaxSpendPerTransaction: req.MaxSpendPerTransaction, Currency: currency,
		ProcessorRef: issue.ProcessorRef, IssuerRef: issue.IssuerRef, CreatedAt: t.Now, UpdatedAt: t.Now}
	state, reason := Provisioned(issue.Provisioning)
	var event engine.EventType
	if state != Processing {
		card.State, event = state, EventCardStateChange
		if reason != "" {
			card.StateReason = &reason
		}
	}
	if card.State.Live() {
		if err := addCardCount(t, "live", 1); err != nil {
			return nil, err
		}
		if err := addCardCount(t, "holder|"+holder.ID, 1); err != nil {
			return nil, err
		}
	}
	if issue.Provisioning == ProvisionDelayed {
		if err := t.Put(tableCardActivations, engine.DueKey(t.Now.Add(issue.ActivationDelay), id), []byte(id)); err != nil {
			return nil, err
		}
	}
	if err := engine.InsertJSON(t, tableCards, id, card); err != nil {
		return nil, err
	}
	if event != "" {
		if err := t.Emit(event, card); err != nil {
			return nil, err
		}
	}
	return card, nil
}

// cardID names the card a create asks the issuer for. Without an
// idempotency key every call is a new request and draws a fresh id. With
// one, the id is derived from the key and the request (engine's KeyedID),
// so a retry
// of a create that reached the issuer but never committed (a crash, a
// store failure) or a concurrent duplicate asks for the same card id
// again: an issuer idempotent on CardIssueRequest.CardID then holds one
// card for the logical create, and the engine stores at most one, as
// engine.InsertJSON refuses a second record under the id. The derived id
// is given up for a fresh one only when a card already has it and the key
// has no live record: the key was reused with the same request after
// payments.Config.IdempotencyRetention, which is a new request.
func cardID(ctx context.Context, e *engine.Handle, req CreateCardRequest) (string, error) {
	id, call, err := e.KeyedID("Card", req)
	if err != nil {
		return "", err
	}
	if call == nil {
		return e.NewID("Card")
	}
	fresh := false
	err = e.View(ctx, func(t *engine.Txn) error {
		_, live, err := engine.Recorded[*Card](t, call, t.Now)
		if err != nil && !live {
			return err
		}
		_, err = t.Get(tableCards, id)
		fresh = err == nil && !live
		if errors.Is(err, engine.ErrNotFound) {
			err = nil
		}
		return err
	})
	if err != nil || !fresh {
		return id, err
	}
	return e.NewID("Card")
}

// orNone names an empty status.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// checkFundingList checks the shape of a fundingSources list: at least one
// id, none empty, none repeated.
func checkFundingList(fe *validate.Errors, ids []string) {
	if len(ids) == 0 {
		fe.Add("fundingSources", &validate.Constraint{}, "fundingSources must list at least one internal account id")
		return
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if fe.Required(validate.Index("fundingSources", i), id) && seen[id] {
			fe.Add(validate.Index("fundingSources", i), nil, "funding source %s is listed twice", id)
		}
		seen[id] = true
	}
}

// checkIssuerSources asks the issuer about every funding source, before the
// transaction, naming each refused one.
func checkIssuerSources(ctx context.Context, iss CardIssuer, ids []string) error {
	var fe validate.Errors
	for i, id := range ids {
		if err := iss.CheckFundingSource(ctx, id); err != nil {
			if engine.CodeOf(err) != CodeFundingSourceIneligible {
				return err
			}
			fe.Add(validate.Index("fundingSources", i), nil, "%s", engine.MessageOf(err))
		}
	}
	return engine.InvalidAs(CodeFundingSourceIneligible, fe.Err())
}

// fundingCurrency checks that every id is an ACTIVE internal account of
// holder in one card-eligible currency (want, when set: the card's) and
// returns that currency; anything else is FUNDING_SOURCE_INELIGIBLE naming
// each refused source.
func fundingCurrency(t *engine.Txn, holder, want string, ids []string) (string, error) {
	var fe validate.Errors
	currency := want
	for i, id := range ids {
		field := validate.Index("fundingSources", i)
		a, err := accounts.Internal(t, id)
		switch {
		case engine.CodeOf(err) == engine.CodeAccountNotFound || (err == nil && a.CustomerID != holder):
			fe.Add(field, nil, "%s is not an internal account of the cardholder", id)
		case err != nil:
			return "", err
		case a.Status != "ACTIVE":
			fe.Add(field, nil, "internal account %s is %s", id, a.Status)
		case !Eligible(a.Currency):
			fe.Add(field, nil, "internal account %s is in %s, which cards are not issued in", id, a.Currency)
		case currency != "" && a.Currency != currency:
			fe.Add(field, nil, "internal account %s is in %s; every funding source must be in %s", id, a.Currency, currency)
		default:
			currency = a.Currency
		}
	}
	return currency, engine.InvalidAs(CodeFundingSourceIneligible, fe.Err())
}

// cardCount reads a live-card counter (0 when never set).
func cardCount(t *engine.Txn, key string) (int, error) {
	b, err := t.Get(tableCardCounts, key)
	if errors.Is(err, engine.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(string(b))
}

// addCardCount moves a live-card counter by delta.
func addCardCount(t *engine.Txn, key string, delta int) error {
	n, err := cardCount(t, key)
	if err != nil {
		return err
	}
	return t.Put(tableCardCounts, key, []byte(strconv.Itoa(n+delta)))
}

// Update changes a card (PATCH /cards/{id}): its state by the state
// machine (CheckUpdate: INVALID_STATE_TRANSITION,
// CARD_ALREADY_CLOSED, CARD_NOT_MUTABLE), its funding sources (checked as
// at issue, in the card's currency) and its spending limit. At least one
// must be given. A state change emits CARD.STATE_CHANGE, new funding
// sources CARD.FUNDING_SOURCE_CHANGE; closing frees the card's slot. Open
// authorizations of a closed card keep their holds and still clear (late
// presentments are force-posted), but it authorizes nothing new.
//
// New funding sources are asked of the issuer before the transaction and
// checked again in it (FUNDING_SOURCE_INELIGIBLE naming each); an unknown
// card is NOT_FOUND; fundingSources or maxSpendPerTransaction together with
// state CLOSED INVALID_INPUT.
func (c Service) Update(ctx context.Context, id string, req UpdateCardRequest) (*Card, error) {
	return engine.Run(ctx, c.e, updateCard, cardUpdate{id, req})
}

// cardUpdate is an Update request: the card's id and the changes.
type cardUpdate struct {
	id  string
	req UpdateCardRequest
}

// MarshalJSON fingerprints the request for its idempotency key as the
// pair [id, request].
func (u cardUpdate) MarshalJSON() ([]byte, error) { return json.Marshal([]any{u.id, u.req}) }

// updateCard is Service.Update's operation.
var updateCard = engine.Op[cardUpdate, *Card, struct{}]{Area: "cards", Name: "Update", Guard: needIssuer,
	Validate: func(in *cardUpdate) error {
		req := in.req
		var fe validate.Errors
		if req.State != "" {
			fe.Enum("state", string(req.State), "ACTIVE", "FROZEN", "CLOSED")
		}
		if req.FundingSources != nil {
			checkFundingList(&fe, req.FundingSources)
		}
		if req.MaxSpendPerTransaction.Value != nil && *req.MaxSpendPerTransaction.Value < 1 {
			fe.Add("maxSpendPerTransaction", &validate.Constraint{}, "maxSpendPerTransaction must be at least 1, or null to clear it")
		}
		if req.State == "" && !req.settings() {
			fe.Add("state", nil, "give at least one of state, fundingSources and maxSpendPerTransaction")
		}
		return engine.Invalid(fe.Err())
	},
	Prefetch: func(ctx context.Context, e *engine.Handle, in *cardUpdate, _ *struct{}, _ error) error {
		if in.req.FundingSources == nil {
			return nil
		}
		iss, err := issuerOf(e)
		if err != nil {
			return err
		}
		return checkIssuerSources(ctx, iss, in.req.FundingSources)
	},
	Decide: func(t *engine.Txn, in *cardUpdate, _ *struct{}) (*Card, error) {
		id, req := in.id, in.req
		card, err := Get(t, id)
		if err != nil {
			return nil, err
		}
		if err := CheckUpdate(card.State, req.State, req.settings()); err != nil {
			return nil, cardRefusal(err, card)
		}
		var events []engine.EventType
		if req.FundingSources != nil {
			if _, err := fundingCurrency(t, card.CardholderID, card.Currency, req.FundingSources); err != nil {
				return nil, err
			}
			card.FundingSources = req.FundingSources
			events = append(events, EventCardFundingSourceChange)
		}
		if req.MaxSpendPerTransaction.Set {
			card.MaxSpendPerTransaction = req.MaxSpendPerTransaction.Value
		}
		if req.State != "" {
			card.State = req.State
			if req.State == Closed {
				reason := ClosedByPlatform
				card.StateReason = &reason
				if err := freeCardSlot(t, card); err != nil {
					return nil, err
				}
			}
			events = append(events, EventCardStateChange)
		}
		if err := saveCard(t, card, ""); err != nil {
			return nil, err
		}
		for _, ev := range events {
			if err := t.Emit(ev, card); err != nil {
				return nil, err
			}
		}
		return card, nil
	}}

// settings reports whether the update changes a card's settings (funding
// sources or spending limit), not only its state.
func (req UpdateCardRequest) settings() bool {
	return req.FundingSources != nil || req.MaxSpendPerTransaction.Set
}

// freeCardSlot gives back the live-card slots of a card that closes.
func freeCardSlot(t *engine.Txn, card *Card) error {
	if err := addCardCount(t, "live", -1); err != nil {
		return err
	}
	return addCardCount(t, "holder|"+card.CardholderID, -1)
}

// cardRefusal maps a refusal of the state machine (Transition,
// CheckUpdate) to its coded error: the API's code of the same name, or a
// field error for ErrCloseWithSettings.
func cardRefusal(err error, card *Card) error {
	switch {
	case errors.Is(err, ErrAlreadyClosed):
		return engine.Errorf(CodeCardAlreadyClosed, "card %s is already closed", card.ID)
	case errors.Is(err, ErrNotMutable):
		return engine.Errorf(CodeCardNotMutable, "card %s is closed and can no longer change", card.ID)
	case errors.Is(err, ErrInvalidTransition):
		return engine.Errorf(engine.CodeInvalidStateTransition, "a %s card cannot move to the requested state; permitted are ACTIVE to FROZEN and back, and ACTIVE or FROZEN to CLOSED", card.State)
	case errors.Is(err, ErrCloseWithSettings):
		var fe validate.Errors
		fe.Add("state", nil, "fundingSources and maxSpendPerTransaction cannot be combined with state CLOSED")
		return engine.Invalid(fe)
	}
	return err
}

// Reveal mints a short-lived URL that shows the card's details to the
// cardholder (POST /cards/{id}/reveal). The card resource never carries
// it and the engine never stores it: the reveal is not replayed by an
// idempotency key (a recorded answer would keep a bearer secret), and
// only an audit record of who revealed which card, and when, is written.
// actor names the requester (the API token); without one the reveal is
// FORBIDDEN, as it is for a card that has no live details (PROCESSING,
// PENDING_KYC or CLOSED).
func (c Service) Reveal(ctx context.Context, id, actor string) (*CardReveal, error) {
	return engine.Run(ctx, c.e, revealCard, cardReveal{id: id, actor: actor})
}

// cardReveal is a Reveal request: the card and who asks.
type cardReveal struct{ id, actor string }

// revealed is what a reveal gathers before its transaction: the issuer's
// answer and the audit record's id, and the request's context, for the
// log line Answer writes.
type revealed struct {
	rv      CardReveal
	auditID string
	ctx     context.Context
}

// revealCard is Service.Reveal's operation: the card is read and the
// issuer asked outside every transaction; the transaction writes the
// audit record only, under no idempotency key.
var revealCard = engine.Op[cardReveal, *CardReveal, revealed]{Area: "cards", Name: "Reveal", Access: engine.Unkeyed, Guard: needIssuer,
	Validate: func(in *cardReveal) error {
		if in.actor == "" {
			return engine.Errorf(engine.CodeForbidden, "a card reveal needs an attributable actor")
		}
		return nil
	},
	Prefetch: func(ctx context.Context, e *engine.Handle, in *cardReveal, f *revealed, _ error) error {
		f.ctx = ctx
		iss, err := issuerOf(e)
		if err != nil {
			return err
		}
		card, err := engine.Run(ctx, e, getCard, in.id)
		if err != nil {
			return err
		}
		if card.State != Active && card.State != Frozen {
			return engine.Errorf(engine.CodeForbidden, "the details of a %s card cannot be revealed", card.State)
		}
		if f.rv, err = iss.RevealCard(ctx, card); err != nil {
			return err
		}
		f.auditID, err = e.NewID("CardReveal")
		return err
	},
	Decide: func(t *engine.Txn, in *cardReveal, f *revealed) (*CardReveal, error) {
		err := engine.PutJSON(t, tableCardReveals, f.auditID, cardRevealAudit{CardID: in.id, Actor: in.actor, At: t.Now, ExpiresAt: f.rv.ExpiresAt})
		if err != nil {
			return nil, err
		}
		rv := f.rv
		return &rv, nil
	},
	Answer: func(e *engine.Handle, in *cardReveal, f *revealed, rv *CardReveal, err error) (*CardReveal, error) {
		if err == nil {
			e.Log.InfoContext(f.ctx, "card revealed", "card", in.id, "actor", in.actor)
		}
		return rv, err
	}}

// tableCardReveals is the audit log of card reveals.
const tableCardReveals = "card_reveals"

// cardRevealAudit records one reveal: which card, who asked, when, and
// when the URL stopped loading. The URL itself is never stored.
type cardRevealAudit struct {
	CardID    string    `json:"cardId"`
	Actor     string    `json:"actor"`
	At        time.Time `json:"at"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// applyCardActivation activates a card whose delayed activation came due,
// if it is still PROCESSING (a card closed meanwhile stays closed). Its
// live-card slot was taken at creation, so no counter moves.
func applyCardActivation(t *engine.Txn, _ string, v []byte) (bool, error) {
	card, err := Get(t, string(v))
	if err != nil || card.State != Processing {
		return false, err
	}
	card.State = Active
	return true, saveCard(t, card, EventCardStateChange)
}

package cards

import (
	"context"
	"encoding/json"
	"iter"
	"slices"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes"
	"github.com/paygrid/payments/validate"
)

// Card tables: cards by id, and the live-card counters the limits read
// ("live" and "holder|<customer id>"). The counters are kept in the same
// transaction as the card they count, so the limits hold under concurrent
// creates: the second of two creates racing for the last slot reads the
// first's count or is retried by the store.
const (
	tableCards      = "cards"
	tableCardCounts = "card_counts"
)

// CardIssuer is the port to the card issuer (the issuer of record and its
// processor). The engine owns every card rule (this package); the issuer
// answers what only it knows. Its methods are called before the
// operation's store transaction, so their answers must not depend on the
// engine's state; an issuer that provisions for real must treat IssueCard
// as idempotent on CardIssueRequest.CardID. The guarantee the engine gives
// in return: a create under an idempotency key asks for one card id
// however often it is retried (the id is derived from the key and the
// request), so a crash between the issuer's answer and the commit, or a
// concurrent duplicate, leaves one card at such an issuer; a create whose
// answer committed is replayed without asking again. A create without a
// key is a new request each time, with a fresh id. The operation may still
// refuse the card after the issuer answered (KYC, a funding source, a
// limit): the engine then stores no card for that id.
type CardIssuer interface {
	// IssueCard provisions a card and reports how: active at once, after
	// a delay, pending, or rejected. An error is returned to the caller
	// as is (an *engine.Error keeps its code, anything else is
	// INTERNAL_ERROR) and nothing is stored.
	IssueCard(ctx context.Context, req CardIssueRequest) (CardIssue, error)
	// CheckFundingSource reports whether the issuer accepts the internal
	// account as a card's funding source: nil, or an *engine.Error with
	// code FUNDING_SOURCE_INELIGIBLE, which Create and Update gather per
	// source. Any other error fails the operation as is.
	CheckFundingSource(ctx context.Context, accountID string) error
	// RevealCard mints a short-lived URL of the processor's iframe that
	// shows the card's PAN, CVV and expiry. The card details never cross
	// the engine: only the URL does, and it is never stored. Its error
	// reaches the caller as is.
	RevealCard(ctx context.Context, card *Card) (CardReveal, error)
}

// CardSimulator is the optional capability of a CardIssuer with a sandbox
// network: it answers a simulated card event (the sandbox simulators) with
// the issuer's transaction token and how the network steers the event.
type CardSimulator interface {
	// SimulateCardEvent answers one simulated event before the engine's
	// transaction applies it; it must not depend on the engine's state.
	// An error fails the simulation as is.
	SimulateCardEvent(ctx context.Context, ev CardEvent) (CardEventOutcome, error)
}

// CardIssueRequest is what the issuer learns of a new card.
type CardIssueRequest struct {
	CardID               string
	CardholderID         string
	PlatformCardID       string // as requested: empty when the platform gave none
	Form                 string
	ThreeDSecurePassword string // forwarded, never stored
}

// CardIssue is the issuer's answer to a card request: how it provisions
// the card and the details the card record keeps (never the PAN or CVV).
type CardIssue struct {
	Provisioning    Provisioning
	ActivationDelay time.Duration // for ProvisionDelayed
	Brand           string        // VISA or MASTERCARD
	Last4           string
	ExpMonth        int
	ExpYear         int
	ProcessorRef    string
	IssuerRef       string
}

// CardReveal is a minted reveal URL and when it stops loading (reference
// CardRevealResponse).
type CardReveal struct {
	PanEmbedURL string    `json:"panEmbedUrl"`
	ExpiresAt   time.Time `json:"expiresAt"`
}

// CardEvent is one simulated network event on a card.
type CardEvent struct {
	Kind              CardEventKind
	CardID            string
	CardTransactionID string               // events on an existing transaction
	Merchant          *quotes.CardMerchant // authorization-family events
	Amount            int64
}

// CardEventOutcome is how the issuer's network answers a simulated event:
// its transaction token, and for authorization-family events a network
// decline, a delay before the funding pull confirms, or a confirmation
// that fails after the pull succeeded.
type CardEventOutcome struct {
	Token         string
	Decline       string // Decline* or "" (approved by the network)
	PullDelay     time.Duration
	ConfirmFailed bool
}

// Card is a debit card bound to internal accounts (reference Card). Its
// FundingSources are tried in order by an authorization; all are in
// Currency, the card's.
type Card struct {
	ID                     string    `json:"id"`
	CardholderID           string    `json:"cardholderId"`
	PlatformCardID         string    `json:"platformCardId,omitempty"`
	State                  State     `json:"state"`
	StateReason            *Reason   `json:"stateReason"`
	Brand                  string    `json:"brand,omitempty"`
	Form                   string    `json:"form"`
	Last4                  string    `json:"last4,omitempty"`
	ExpMonth               int       `json:"expMonth,omitempty"`
	ExpYear                int       `json:"expYear,omitempty"`
	FundingSources         []string  `json:"fundingSources"`
	MaxSpendPerTransaction *int64    `json:"maxSpendPerTransaction"`
	Currency               string    `json:"currency,omitempty"`
	ProcessorRef           string    `json:"processorRef,omitempty"`
	IssuerRef              string    `json:"issuerRef,omitempty"`
	CreatedAt              time.Time `json:"createdAt"`
	UpdatedAt              time.Time `json:"updatedAt"`
}

// CreateCardRequest issues a card (reference CardCreateRequest).
type CreateCardRequest struct {
	CardholderID           string   `json:"cardholderId"`
	PlatformCardID         string   `json:"platformCardId,omitempty"`
	ThreeDSecurePassword   string   `json:"threeDSecurePassword,omitempty"`
	Form                   string   `json:"form"`
	FundingSources         []string `json:"fundingSources"`
	MaxSpendPerTransaction *int64   `json:"maxSpendPerTransaction,omitempty"`
}

// UpdateCardRequest changes a card (reference CardUpdateRequest): any of
// its state, its funding sources (replacing them, in priority order) and
// its spending limit.
type UpdateCardRequest struct {
	State                  State         `json:"state,omitempty"`
	FundingSources         []string      `json:"fundingSources,omitempty"`
	MaxSpendPerTransaction OptionalInt64 `json:"maxSpendPerTransaction"`
}

// OptionalInt64 is a JSON member that may be absent (Set false), null (Set,
// Value nil: clear it) or an integer (Set, Value: set it).
type OptionalInt64 struct {
	Set   bool
	Value *int64
}

// UnmarshalJSON records that the member was present, and its value.
func (o *OptionalInt64) UnmarshalJSON(b []byte) error {
	o.Set, o.Value = true, nil
	if string(b) == "null" {
		return nil
	}
	var n int64
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	o.Value = &n
	return nil
}

// MarshalJSON writes the value (null when unset or cleared).
func (o OptionalInt64) MarshalJSON() ([]byte, error) { return json.Marshal(o.Value) }

// CardFilter narrows Cards.List (reference listCards filters): by
// cardholder, by a funding-source account, by platform card id and by
// state. Zero members match everything.
type CardFilter struct {
	CardholderID   string
	AccountID      string
	PlatformCardID string
	State          State
}

// Service is the card area of the engine: issuance, the state machine,
// reveal, and the sandbox card network simulators. Reach it as eng.Cards
// (payments.Cards). Without an issuer every method is NOT_IMPLEMENTED.
type Service struct{ e *engine.Handle }

// NewService returns the Cards group of h.
func NewService(h *engine.Handle) Service { return Service{h} }

// issuerOf returns e's configured issuer, or NOT_IMPLEMENTED (reference
// 501: environments without a card issuer).
func issuerOf(e *engine.Handle) (CardIssuer, error) {
	if cardsSlot.Of(e).Issuer == nil {
		return nil, engine.Errorf(engine.CodeNotImplemented, "cards are not enabled: no card issuer is configured")
	}
	return cardsSlot.Of(e).Issuer, nil
}

// needIssuer is the Guard of every card operation: NOT_IMPLEMENTED
// without an issuer, before the request is looked at.
func needIssuer(e *engine.Handle) error {
	_, err := issuerOf(e)
	return err
}

// Get returns the card with id (NOT_FOUND when absent; NOT_IMPLEMENTED
// without an issuer).
func (c Service) Get(ctx context.Context, id string) (*Card, error) {
	return engine.Run(ctx, c.e, getCard, id)
}

// getCard is Service.Get's operation.
var getCard = engine.Op[string, *Card, struct{}]{Area: "cards", Name: "Get", Access: engine.Read, Guard: needIssuer,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Card, error) { return Get(t, *id) }}

// List lists cards in creation order (newest first with p.Desc), from the
// index of the most selective filter given. An unknown state, a bad cursor or
// limit is INVALID_INPUT; without an issuer NOT_IMPLEMENTED.
func (c Service) List(ctx context.Context, f CardFilter, p engine.ListParams) (engine.Page[Card], error) {
	return engine.Run(ctx, c.e, listCards, cardList{f, p})
}

// cardList is a List request: its filter and page.
type cardList struct {
	f CardFilter
	p engine.ListParams
}

// listCards is Service.List's operation.
var listCards = engine.Op[cardList, engine.Page[Card], struct{}]{Area: "cards", Name: "List", Access: engine.Read, Guard: needIssuer,
	Validate: func(in *cardList) error {
		if in.f.State != "" && !in.f.State.Valid() {
			var fe validate.Errors
			fe.Enum("state", string(in.f.State), cardStateNames()...)
			return engine.Invalid(fe.Err())
		}
		return nil
	},
	Decide: func(t *engine.Txn, in *cardList, _ *struct{}) (engine.Page[Card], error) {
		f := in.f
		q := engine.ListQuery[Card]{Table: tableCards, Index: engine.IxAll, Match: func(x *Card) bool {
			return (f.CardholderID == "" || x.CardholderID == f.CardholderID) &&
				(f.AccountID == "" || slices.Contains(x.FundingSources, f.AccountID)) &&
				(f.PlatformCardID == "" || x.PlatformCardID == f.PlatformCardID) &&
				(f.State == "" || x.State == f.State)
		}}
		return engine.List(t, q.Narrowest(
			[2]string{ixPlatform, f.PlatformCardID},
			[2]string{ixAccount, f.AccountID},
			[2]string{ixHolder, f.CardholderID},
			[2]string{engine.IxStatus, string(f.State)}), in.p)
	}}

// ListAll walks every page of List from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (c Service) ListAll(ctx context.Context, f CardFilter, p engine.ListParams) iter.Seq2[Card, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Card], error) {
		return c.List(ctx, f, p)
	})
}

// cardStateNames lists the card states as strings, for field errors.
func cardStateNames() []string {
	out := make([]string, len(States))
	for i, s := range States {
		out[i] = string(s)
	}
	return out
}

// saveCard stores c, stamping updatedAt, and emits event ("" for none)
// with the card as its data.
func saveCard(t *engine.Txn, c *Card, event engine.EventType) error {
	c.UpdatedAt = t.Now
	if err := engine.PutJSON(t, tableCards, c.ID, c); err != nil {
		return err
	}
	if event == "" {
		return nil
	}
	return t.Emit(event, c)
}

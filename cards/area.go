package cards

import (
	"time"

	"github.com/paygrid/payments/internal/engine"
)

// Area declares the cards area's tables and due work: cards with
// their counts, positions and reveal audits, and the sandbox network's
// activations and pulls. payments.New registers it. Card transactions
// themselves live in the transactions table of package quotes.
func Area(e *engine.Handle, cfg Options) engine.AreaDef {
	return engine.AreaDef{
		Codes: codes,
		State: []engine.SlotEntry{cardsSlot.With(&cardsState{Options: cfg})},
		Tables: []engine.TableDef{
			{Name: tableCards, Record: func() any { return new(Card) },
				Ix: engine.Indexed(tableCards, func(x *Card) time.Time { return x.CreatedAt },
					engine.Every[Card](),
					engine.Ix(ixHolder, func(x *Card) string { return x.CardholderID }),
					engine.IxMany(ixAccount, func(x *Card, out []string) []string { return engine.AppendValues(out, x.FundingSources...) }),
					engine.Ix(ixPlatform, func(x *Card) string { return x.PlatformCardID }),
					engine.Ix(engine.IxStatus, func(x *Card) string { return string(x.State) }))},
			{Name: tableCardCounts},
			{Name: tableCardPositions, Record: func() any { return new(cardPosition) }},
			{Name: tableCardPullsDue},
			{Name: tableCardActivations},
			{Name: tableCardReveals, Record: func() any { return new(cardRevealAudit) }},
		},
		Due: []engine.DueWork{
			{Table: tableCardActivations, Apply: applyCardActivation},
			{Table: tableCardPullsDue, Apply: applyCardPullDue},
		},
	}
}

// Options is what payments.New gives the cards area: the issuer (nil: no
// cards) and the limits on live cards.
type Options struct {
	// Issuer is payments.Config.CardIssuer. Nil makes every card operation
	// NOT_IMPLEMENTED; an issuer that is also a CardSimulator runs the
	// sandbox network.
	Issuer CardIssuer
	// Limits is payments.Config.CardLimits; zero members take the defaults
	// (Limits.WithDefaults).
	Limits Limits
}

// cardsState is the cards area's state.
type cardsState struct{ Options }

// cardsSlot finds the cards area's state on an engine handle.
var cardsSlot engine.Slot[cardsState]

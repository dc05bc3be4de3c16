package payments

import "time"

// cardsArea declares the cards area's tables and due work: cards with
// their counts, positions and reveal audits, and the sandbox network's
// activations and pulls.
func cardsArea(e *handle, cfg Config) areaDef {
	return areaDef{
		state: []slotEntry{cardsSlot.with(&cardsState{issuer: cfg.CardIssuer, limits: cfg.CardLimits})},
		tables: []tableDef{
			{name: tableCards, record: func() any { return new(Card) },
				ix: indexed(tableCards, func(x *Card) time.Time { return x.CreatedAt },
					every[Card](),
					ix(ixHolder, func(x *Card) string { return x.CardholderID }),
					ixMany(ixAccount, func(x *Card, out []string) []string { return appendValues(out, x.FundingSources...) }),
					ix(ixPlatform, func(x *Card) string { return x.PlatformCardID }),
					ix(ixStatus, func(x *Card) string { return string(x.State) }))},
			{name: tableCardCounts},
			{name: tableCardPositions, record: func() any { return new(cardPosition) }},
			{name: tableCardPullsDue},
			{name: tableCardActivations},
			{name: tableCardReveals, record: func() any { return new(cardRevealAudit) }},
		},
		due: []dueWork{
			{table: tableCardActivations, apply: applyCardActivation},
			{table: tableCardPullsDue, apply: applyCardPullDue},
		},
	}
}

// cardsState is the cards area's state: the issuer (nil: no cards) and the
// limits on live cards.
type cardsState struct {
	issuer CardIssuer
	limits CardLimits
}

var cardsSlot slot[cardsState]

package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"net/url"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/cards"
)

// Issuer is the sandbox card issuer and its network (payments.CardIssuer
// and payments.CardSimulator), steered by suffixes as the reference's
// sandbox documents them:
//
// Issuance, by the last three characters of platformCardId (of
// cardholderId when it is omitted): 001 stays PROCESSING, 002 is rejected
// by the issuer (CLOSED, ISSUER_REJECTED), 005 activates after
// ActivationDelay, anything else activates at once. last4 is derived from
// the same characters.
//
// Authorization-family events, by the last three characters of the
// merchant descriptor: 002 declines INSUFFICIENT_FUNDS, 003 declines
// CARD_PAUSED, 005 delays the funding pull's confirmation by PullDelay, 006
// lets the pull succeed and its confirmation fail (EXCEPTION); anything
// else is approved by the network (the engine still applies its own
// decisions: card state, spending limit, funds).
//
// The reference's funding-source suffixes (an internal account id ending
// in 002 or 003) are not applied: account ids here are random UUIDs that
// no sandbox user can choose, so the rule would refuse one account in 2048
// at random. The engine refuses ineligible sources by their real state
// (another holder's account, an inactive one, an ineligible currency).
type Issuer struct {
	// Now dates expiries and reveal URLs. Nil means time.Now; New passes
	// the sandbox clock.
	Now func() time.Time
}

var (
	_ payments.CardIssuer    = Issuer{}
	_ payments.CardSimulator = Issuer{}
)

// Sandbox card delays: how long the delayed suffixes wait.
const (
	ActivationDelay = 30 * time.Second
	PullDelay       = 30 * time.Second
	// RevealTTL is how long a reveal URL loads.
	RevealTTL = 5 * time.Minute
)

func (i Issuer) now() time.Time {
	if i.Now != nil {
		return i.Now()
	}
	return time.Now()
}

// IssueCard answers by the request's suffix.
func (i Issuer) IssueCard(_ context.Context, req payments.CardIssueRequest) (payments.CardIssue, error) {
	key := req.PlatformCardID
	if key == "" {
		key = req.CardholderID
	}
	out := payments.CardIssue{Provisioning: cards.ProvisionActive, Brand: "VISA", Last4: last4(Suffix(key))}
	switch Suffix(key) {
	case "001":
		out.Provisioning = cards.ProvisionPending
	case "002":
		out.Provisioning = cards.ProvisionRejected
	case "005":
		out.Provisioning, out.ActivationDelay = cards.ProvisionDelayed, ActivationDelay
	}
	now := i.now().UTC()
	out.ExpMonth, out.ExpYear = int(now.Month()), now.Year()+4
	ref := token()
	out.ProcessorRef, out.IssuerRef = "card_"+ref[:12], "sandbox_card_"+ref[12:24]
	return out, nil
}

// last4 derives the last four PAN digits from a suffix: the same suffix
// always gives the same digits, and a numeric suffix ends them.
func last4(suffix string) string {
	h := fnv.New32a()
	h.Write([]byte(suffix))
	n := h.Sum32() % 10
	if len(suffix) == 3 && isDigits(suffix) {
		return fmt.Sprintf("%d%s", n, suffix)
	}
	return fmt.Sprintf("%04d", h.Sum32()%10000)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// CheckFundingSource accepts every internal account (see Issuer).
func (Issuer) CheckFundingSource(context.Context, string) error { return nil }

// RevealCard mints a dummy embed URL that expires after RevealTTL.
func (i Issuer) RevealCard(_ context.Context, card *payments.Card) (payments.CardReveal, error) {
	return payments.CardReveal{PanEmbedURL: "https://embed.sandbox.invalid/iframe/" + url.PathEscape(card.ID) + "?t=" + token(),
		ExpiresAt: i.now().UTC().Add(RevealTTL).Truncate(time.Millisecond)}, nil
}

// SimulateCardEvent answers a simulated event with a fresh token and, for
// the authorization family, the merchant descriptor's steering.
func (Issuer) SimulateCardEvent(_ context.Context, ev payments.CardEvent) (payments.CardEventOutcome, error) {
	out := payments.CardEventOutcome{Token: "sandbox_txn_" + token()[:24]}
	if ev.Merchant == nil || ev.Kind == payments.CardBalanceInquiry {
		return out, nil
	}
	switch Suffix(ev.Merchant.Descriptor) {
	case "002":
		out.Decline = cards.DeclineInsufficientFunds
	case "003":
		out.Decline = cards.DeclineCardPaused
	case "005":
		out.PullDelay = PullDelay
	case "006":
		out.ConfirmFailed = true
	}
	return out, nil
}

// token returns 32 random hex digits.
func token() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

package invitations

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
)

// URLBase prefixes an invitation's code in its URL.
const URLBase = "https://uma.me/i/"

// Invitation states (reference UmaInvitation.status).
const (
	Pending   = "PENDING"
	Claimed   = "CLAIMED"
	Expired   = "EXPIRED"
	Cancelled = "CANCELLED"
)

// Invitation is a UMA invitation (reference UmaInvitation). Its stored
// Status never becomes EXPIRED: an expiry is judged whenever the invitation
// is read (statusAt), so no due work is needed to end one.
type Invitation struct {
	Code         string                   `json:"code"`
	CreatedAt    time.Time                `json:"createdAt"`
	ClaimedAt    *time.Time               `json:"claimedAt,omitempty"`
	URL          string                   `json:"url"`
	ExpiresAt    *time.Time               `json:"expiresAt,omitempty"`
	InviterUma   string                   `json:"inviterUma"`
	InviteeUma   string                   `json:"inviteeUma,omitempty"`
	Status       string                   `json:"status"`
	FirstName    string                   `json:"firstName,omitempty"`
	AmountToSend *accounts.CurrencyAmount `json:"amountToSend,omitempty"`
}

// Request creates an invitation (reference UmaInvitationCreateRequest).
// AmountToSend, in the smallest unit of the inviter's currency, is a
// promise shown to the invitee: the engine moves no money for it, the
// platform does once it learns of the claim.
type Request struct {
	InviterUma   string     `json:"inviterUma"`
	FirstName    string     `json:"firstName,omitempty"`
	AmountToSend *int64     `json:"amountToSend,omitempty"`
	ExpiresAt    *time.Time `json:"expiresAt,omitempty"`
}

// Service is the UMA invitations group: a customer invites someone by
// link; claiming it tells the platform (INVITATION.CLAIMED) so that it can
// send the promised amount. Reach it as eng.Invitations.
type Service struct{ e *engine.Handle }

// New returns the invitations group of h.
func New(h *engine.Handle) Service { return Service{h} }

// statusAt is the invitation's state at now: a PENDING invitation past its
// expiresAt is EXPIRED, judged by its own deadline whenever it is read.
func (inv *Invitation) statusAt(now time.Time) string {
	if inv.Status == Pending && inv.ExpiresAt != nil && !now.Before(*inv.ExpiresAt) {
		return Expired
	}
	return inv.Status
}

// Create creates a PENDING invitation from the customer holding
// InviterUma. Invitations need a webhook endpoint to report claims to:
// without one they are INVITATIONS_NOT_CONFIGURED. An inviter address that
// is malformed or no customer's is INVALID_UMA_ADDRESS; the optional amount
// is in the smallest unit of the inviter's first account currency. Other
// bad fields (a name too long, an amount outside 1..MaxAmount, an
// expiresAt not in the future) are INVALID_INPUT.
//
// The code is drawn before the transaction, so a store rerunning it keeps
// the same code; two invitations drawing the same 48-bit code (a chance in
// 2^48) would make the second CONFLICT rather than overwrite the first.
func (v Service) Create(ctx context.Context, req Request) (*Invitation, error) {
	return engine.Run(ctx, v.e, createInvitation, invitationCreation{req, v.e.Now()})
}

// invitationCreation is a Create request with the time it was asked at,
// which its expiresAt must follow.
type invitationCreation struct {
	req Request
	now time.Time
}

// createInvitation is Service.Create's operation. Its idempotency
// record fingerprints the request alone, as before it was declared.
var createInvitation = engine.Op[invitationCreation, *Invitation, string]{Area: "quotes", Name: "Invitations.Create",
	Fingerprint: func(c *invitationCreation) any { return c.req },
	Validate:    checkInvitation,
	Prefetch: func(_ context.Context, _ *engine.Handle, _ *invitationCreation, code *string, _ error) error {
		*code = randomCode() // drawn before the transaction: reruns keep it
		return nil
	},
	Decide: storeInvitation}

// checkInvitation checks an invitation request's fields, every problem at
// once: a missing or malformed inviterUma is INVALID_UMA_ADDRESS, the
// others INVALID_INPUT.
func checkInvitation(c *invitationCreation) error {
	req := &c.req
	var fe validate.Errors
	if fe.Required("inviterUma", req.InviterUma) {
		fe.Match("inviterUma", req.InviterUma, customers.UmaPattern, "a UMA address such as $alice@example.com")
	}
	fe.MaxLen("firstName", req.FirstName, 255)
	if req.AmountToSend != nil && (*req.AmountToSend < 1 || *req.AmountToSend > money.MaxAmount) {
		fe.Add("amountToSend", nil, "amountToSend must be between 1 and %d", money.MaxAmount)
	}
	if req.ExpiresAt != nil && !req.ExpiresAt.After(c.now) {
		fe.Format("expiresAt", "date-time", "expiresAt must be in the future")
	}
	if fe.Has("inviterUma") {
		return engine.InvalidAs(engine.CodeInvalidUmaAddress, fe.Err())
	}
	return engine.Invalid(fe.Err())
}

// storeInvitation stores the invitation under the drawn code, once the
// platform can report its claim and the inviter is a customer.
func storeInvitation(t *engine.Txn, c *invitationCreation, code *string) (*Invitation, error) {
	req := &c.req
	p, err := platform.Load(t)
	if err != nil {
		return nil, err
	}
	if p.WebhookEndpoint == "" {
		return nil, engine.Errorf(CodeNotConfigured, "invitations need a webhook endpoint to report claims to; set webhookEndpoint with PATCH /config")
	}
	inviter, err := customers.ByUma(t, req.InviterUma)
	if engine.CodeOf(err) == engine.CodeUmaNotFound {
		return nil, engine.Errorf(engine.CodeInvalidUmaAddress, "no customer of this platform holds UMA address %s", req.InviterUma)
	}
	if err != nil {
		return nil, err
	}
	inv := &Invitation{Code: *code, CreatedAt: t.Now, URL: URLBase + *code, InviterUma: req.InviterUma,
		Status: Pending, FirstName: req.FirstName}
	if req.ExpiresAt != nil {
		exp := req.ExpiresAt.UTC()
		inv.ExpiresAt = &exp
	}
	if req.AmountToSend != nil {
		cur, err := customerCurrency(t, inviter.ID, p)
		if err != nil {
			return nil, err
		}
		amt := accounts.AmountOf(cur, *req.AmountToSend)
		inv.AmountToSend = &amt
	}
	return inv, engine.InsertJSON(t, tableInvitations, *code, inv)
}

// customerCurrency is the currency of a customer's first internal account
// (accounts.FirstCurrency, in currency-code order), or the platform's
// first supported currency, or USD on a platform with none.
func customerCurrency(t *engine.Txn, customerID string, p *platform.Config) (string, error) {
	cur, err := accounts.FirstCurrency(t, customerID)
	if cur == "" && len(p.SupportedCurrencies) > 0 {
		cur = p.SupportedCurrencies[0].CurrencyCode
	}
	if cur == "" {
		cur = "USD"
	}
	return cur, err
}

// randomCode returns a fresh invitation code: 12 hex digits.
func randomCode() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Get returns an invitation by code (INVITATION_NOT_FOUND).
func (v Service) Get(ctx context.Context, code string) (*Invitation, error) {
	return engine.Run(ctx, v.e, getInvitation, code)
}

// getInvitation is Service.Get's operation.
var getInvitation = engine.Op[string, *Invitation, struct{}]{Area: "quotes", Name: "Invitations.Get", Access: engine.Read,
	Decide: func(t *engine.Txn, code *string, _ *struct{}) (*Invitation, error) { return invitation(t, *code) }}

// invitation loads an invitation with its state at t.now.
func invitation(t *engine.Txn, code string) (*Invitation, error) {
	var inv Invitation
	if err := engine.GetJSON(t, tableInvitations, code, &inv); err != nil {
		if errors.Is(err, engine.ErrNotFound) {
			return nil, engine.Errorf(CodeNotFound, "invitation %s not found", code)
		}
		return nil, err
	}
	inv.Status = inv.statusAt(t.Now)
	return &inv, nil
}

// pendingInvitation refuses an invitation that is no longer PENDING:
// INVITATION_ALREADY_CLAIMED, INVITATION_CANCELLED, or INVALID_INPUT for
// an expired one.
func pendingInvitation(inv *Invitation) error {
	switch inv.Status {
	case Claimed:
		return engine.Errorf(CodeAlreadyClaimed, "invitation %s was already claimed", inv.Code)
	case Cancelled:
		return engine.Errorf(CodeCancelled, "invitation %s was cancelled", inv.Code)
	case Expired:
		return engine.Errorf(engine.CodeInvalidInput, "invitation %s expired at %s", inv.Code, inv.ExpiresAt.Format(time.RFC3339))
	}
	return nil
}

// Claim claims a PENDING invitation for inviteeUma (a well-formed UMA
// address other than the inviter's, INVALID_UMA_ADDRESS otherwise): it
// becomes CLAIMED and INVITATION.CLAIMED is sent to the platform in the
// same transaction, the platform's cue to send the promised amount. A code
// nobody issued is INVITATION_NOT_FOUND; a claimed, cancelled or expired
// invitation is INVITATION_ALREADY_CLAIMED, INVITATION_CANCELLED or
// INVALID_INPUT (pendingInvitation). Of two concurrent claims by different
// invitees one commits and the other reads CLAIMED: an invitation is
// claimed once.
func (v Service) Claim(ctx context.Context, code, inviteeUma string) (*Invitation, error) {
	return engine.Run(ctx, v.e, claimInvitation, invitationClaim{code, inviteeUma})
}

// invitationClaim is a Claim request: the invitation's code and the
// invitee's UMA address.
type invitationClaim struct{ code, inviteeUma string }

// claimInvitation is Service.Claim's operation. Its idempotency record
// fingerprints the pair [code, inviteeUma], as before it was declared.
var claimInvitation = engine.Op[invitationClaim, *Invitation, struct{}]{Area: "quotes", Name: "Invitations.Claim",
	Fingerprint: func(c *invitationClaim) any { return []string{c.code, c.inviteeUma} },
	Validate: func(c *invitationClaim) error {
		var fe validate.Errors
		if fe.Required("inviteeUma", c.inviteeUma) {
			fe.Match("inviteeUma", c.inviteeUma, customers.UmaPattern, "a UMA address such as $alice@example.com")
		}
		return engine.InvalidAs(engine.CodeInvalidUmaAddress, fe.Err())
	},
	Decide: func(t *engine.Txn, c *invitationClaim, _ *struct{}) (*Invitation, error) {
		inv, err := invitation(t, c.code)
		if err != nil {
			return nil, err
		}
		if err := pendingInvitation(inv); err != nil {
			return nil, err
		}
		if strings.EqualFold(c.inviteeUma, inv.InviterUma) {
			return nil, engine.Errorf(engine.CodeInvalidUmaAddress, "an invitation cannot be claimed by its inviter")
		}
		now := t.Now
		inv.Status, inv.InviteeUma, inv.ClaimedAt = Claimed, c.inviteeUma, &now
		if err := engine.PutJSON(t, tableInvitations, c.code, inv); err != nil {
			return inv, err
		}
		return inv, t.Emit(EventClaimed, inv)
	}}

// Cancel cancels a PENDING invitation; it can no longer be claimed. It
// refuses as Claim does (INVITATION_NOT_FOUND, INVITATION_ALREADY_CLAIMED,
// INVITATION_CANCELLED, INVALID_INPUT when expired) and emits no event.
func (v Service) Cancel(ctx context.Context, code string) (*Invitation, error) {
	return engine.Run(ctx, v.e, cancelInvitation, code)
}

// cancelInvitation is Service.Cancel's operation.
var cancelInvitation = engine.Op[string, *Invitation, struct{}]{Area: "quotes", Name: "Invitations.Cancel",
	Decide: func(t *engine.Txn, code *string, _ *struct{}) (*Invitation, error) {
		inv, err := invitation(t, *code)
		if err != nil {
			return nil, err
		}
		if err := pendingInvitation(inv); err != nil {
			return nil, err
		}
		inv.Status = Cancelled
		return inv, engine.PutJSON(t, tableInvitations, *code, inv)
	}}

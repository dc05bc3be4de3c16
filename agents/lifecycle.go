package agents

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"time"
)

// ActionStatus is the state of an agent action (reference AgentActionStatus).
type ActionStatus string

// Action statuses: PENDING_APPROVAL moves to APPROVED (executed), REJECTED
// (by the platform) or FAILED (approved, but execution was refused); an
// action that ran at once is APPROVED from the start.
const (
	// PendingApproval waits for the platform (Service.Approve, Reject);
	// the only status that can change.
	PendingApproval ActionStatus = "PENDING_APPROVAL"
	// Approved ran: its transaction moved (or is moving) the money.
	Approved ActionStatus = "APPROVED"
	// Rejected was ended by the platform, or by the agent's deletion.
	Rejected ActionStatus = "REJECTED"
	// Failed was approved but could no longer run.
	Failed ActionStatus = "FAILED"
)

// ActionStatuses lists every status, as the strings validate.Errors.Enum
// takes.
var ActionStatuses = []string{string(PendingApproval), string(Approved), string(Rejected), string(Failed)}

// ActionType is what an action does (reference AgentActionType).
type ActionType string

// Action types.
const (
	// ExecuteQuote executes a quote the agent created (Service.ExecuteQuote).
	ExecuteQuote ActionType = "EXECUTE_QUOTE"
	// TransferOut sends from an internal account of the customer to one of
	// its external accounts, as a same-currency quote executed at once.
	TransferOut ActionType = "TRANSFER_OUT"
	// TransferIn pulls from an external account of the customer into an
	// internal one.
	TransferIn ActionType = "TRANSFER_IN"
)

// CanDecide reports whether the platform may approve or reject an action in
// status s: only a pending one.
func CanDecide(s ActionStatus) bool { return s == PendingApproval }

// DeviceCodeTTL is how long a device code can be redeemed (24 hours, as
// the reference's agent device codes).
const DeviceCodeTTL = 24 * time.Hour

// CodeState is the state of a device code at an instant (DeviceCode.State);
// it is derived, never stored.
type CodeState int

// Device-code states: a code is Redeemable until it is redeemed, replaced by
// a newer code of its agent, or expires.
const (
	// Redeemable can be exchanged for a credential (Service.Redeem).
	Redeemable CodeState = iota
	// Redeemed was exchanged once and never again.
	Redeemed
	// Replaced was superseded by a newer code of its agent.
	Replaced
	// Expired is past its ExpiresAt.
	Expired
)

// DeviceCode is a device code as stored, keyed by Code. An agent has at
// most one code that can be redeemed: a newer code marks the previous one
// Replaced, and a redemption marks it Redeemed, both in the transaction
// that makes the change.
type DeviceCode struct {
	Code      string    `json:"code"`
	AgentID   string    `json:"agentId"`
	ExpiresAt time.Time `json:"expiresAt"`
	Redeemed  bool      `json:"redeemed"`
	Replaced  bool      `json:"replaced,omitempty"`
}

// State returns the code's state at now; a code is expired from ExpiresAt on.
func (c *DeviceCode) State(now time.Time) CodeState {
	switch {
	case c.Redeemed:
		return Redeemed
	case c.Replaced:
		return Replaced
	case !now.Before(c.ExpiresAt):
		return Expired
	}
	return Redeemable
}

// codeAlphabet has no look-alike characters (0/O, 1/I/L).
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// FormatCode builds a device code "SERVICE-AGENT-XXXX-XXXX-XXXX" from 12
// random bytes (about 59 bits of entropy). The caller draws the bytes
// before its transaction, so the transaction function stays deterministic.
func FormatCode(random [12]byte) string {
	b := []byte("SERVICE-AGENT-")
	for i, r := range random {
		if i > 0 && i%4 == 0 {
			b = append(b, '-')
		}
		b = append(b, codeAlphabet[int(r)%len(codeAlphabet)])
	}
	return string(b)
}

// TokenPrefix starts every agent access token.
const TokenPrefix = "gat_"

// FormatToken builds an access token from 20 random bytes.
func FormatToken(random [20]byte) string { return TokenPrefix + hex.EncodeToString(random[:]) }

// HashToken is the stored form of an access token: its SHA-256, in hex.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// TokenMatches compares an access token with a stored hash in constant time.
// A malformed or empty hash compares against zeros, so the time taken does
// not tell a missing credential from a wrong one, and never matches.
func TokenMatches(token, hash string) bool {
	want, err := hex.DecodeString(hash)
	if err != nil || len(want) != sha256.Size {
		want = make([]byte, sha256.Size)
	}
	got := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(want, got[:]) == 1 && hash != ""
}

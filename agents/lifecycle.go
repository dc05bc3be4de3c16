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
	PendingApproval ActionStatus = "PENDING_APPROVAL"
	Approved        ActionStatus = "APPROVED"
	Rejected        ActionStatus = "REJECTED"
	Failed          ActionStatus = "FAILED"
)

// ActionStatuses lists every status.
var ActionStatuses = []string{string(PendingApproval), string(Approved), string(Rejected), string(Failed)}

// ActionType is what an action does (reference AgentActionType).
type ActionType string

// Action types.
const (
	ExecuteQuote ActionType = "EXECUTE_QUOTE"
	TransferOut  ActionType = "TRANSFER_OUT"
	TransferIn   ActionType = "TRANSFER_IN"
)

// CanDecide reports whether the platform may approve or reject an action in
// status s: only a pending one.
func CanDecide(s ActionStatus) bool { return s == PendingApproval }

// DeviceCodeTTL is how long a device code can be redeemed (wire-facts 7).
const DeviceCodeTTL = 24 * time.Hour

// CodeState is the state of a device code.
type CodeState int

// Device-code states: a code is Redeemable until it is redeemed, replaced by
// a newer code of its agent, or expires.
const (
	Redeemable CodeState = iota
	Redeemed
	Replaced
	Expired
)

// DeviceCode is a device code as stored.
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
// random bytes (about 59 bits of entropy).
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
func TokenMatches(token, hash string) bool {
	want, err := hex.DecodeString(hash)
	if err != nil || len(want) != sha256.Size {
		want = make([]byte, sha256.Size)
	}
	got := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(want, got[:]) == 1 && hash != ""
}

package stablecoins

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/paygrid/payments/validate"
)

// Refusals. Each is wrapped with a message naming the case; the Service
// maps it to the API code in its comment (stablecoinError).
var (
	// ErrNoLink: no link of the platform fits (STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND).
	ErrNoLink = errors.New("no provider account link")
	// ErrSelectionRequired: several active links and none named
	// (STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED).
	ErrSelectionRequired = errors.New("several active provider account links")
	// ErrLinkInvalid: the link no longer verifies (STABLECOIN_PROVIDER_ACCOUNT_INVALID).
	ErrLinkInvalid = errors.New("provider account link invalid")
	// ErrLinkRevoked: the link was revoked (STABLECOIN_PROVIDER_ACCOUNT_REVOKED).
	ErrLinkRevoked = errors.New("provider account link revoked")
	// ErrNotRequestable: enablement requested outside NOT_ENABLED and
	// PENDING_APPROVAL (STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE).
	ErrNotRequestable = errors.New("enablement not requestable")
	// ErrNotRepresentable: the amount is not a whole number of fiat cents
	// (STABLECOIN_AMOUNT_NOT_REPRESENTABLE).
	ErrNotRepresentable = errors.New("amount not representable")
	// ErrNotProvisioned: the token is not PROVISIONED (STABLECOIN_NOT_PROVISIONED).
	ErrNotProvisioned = errors.New("stablecoin not provisioned")
	// ErrOpsNotEnabled: a Service-managed account is involved and the
	// stablecoin is not ENABLED (STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED).
	ErrOpsNotEnabled = errors.New("service operations not enabled")
	// ErrOpNotSupported: a reserved mint variant (STABLECOIN_OPERATION_NOT_SUPPORTED).
	ErrOpNotSupported = errors.New("operation not supported")
	// ErrBurnSourceNotSupported: a reserved burn source (STABLECOIN_BURN_SOURCE_NOT_SUPPORTED).
	ErrBurnSourceNotSupported = errors.New("burn source not supported")
	// ErrTransition: an operation or enablement move not allowed (an
	// operator or provider error, INVALID_STATE_TRANSITION).
	ErrTransition = errors.New("state transition not allowed")
)

// Link is what selection needs of a provider-account link.
type Link struct {
	ID     string
	Status LinkStatus
}

// usable returns nil for an ACTIVE link and the refusal of the others.
func (l Link) usable() error {
	switch l.Status {
	case LinkActive:
		return nil
	case LinkRevoked:
		return fmt.Errorf("%w: provider account link %s is revoked; link the account again", ErrLinkRevoked, l.ID)
	}
	return fmt.Errorf("%w: provider account link %s no longer verifies with the provider; link it again with valid credentials", ErrLinkInvalid, l.ID)
}

// Select picks the link a request uses among the platform's links of one
// provider and environment. A named link must exist (ErrNoLink) and be
// ACTIVE (ErrLinkInvalid, ErrLinkRevoked). Without a name, the one ACTIVE
// link is used; several are ErrSelectionRequired; none is the refusal of
// the links there are (INVALID before REVOKED), or ErrNoLink.
func Select(links []Link, named string) (Link, error) {
	if named != "" {
		for _, l := range links {
			if l.ID == named {
				return l, l.usable()
			}
		}
		return Link{}, fmt.Errorf("%w: no provider account link %s", ErrNoLink, named)
	}
	var active []Link
	var invalid, revoked *Link
	for i, l := range links {
		switch l.Status {
		case LinkActive:
			active = append(active, l)
		case LinkInvalid:
			invalid = &links[i]
		case LinkRevoked:
			revoked = &links[i]
		}
	}
	switch {
	case len(active) == 1:
		return active[0], nil
	case len(active) > 1:
		return Link{}, fmt.Errorf("%w: %d active provider account links; pass stablecoinProviderAccountId", ErrSelectionRequired, len(active))
	case invalid != nil:
		return *invalid, invalid.usable()
	case revoked != nil:
		return *revoked, revoked.usable()
	}
	return Link{}, fmt.Errorf("%w: link a provider account first (POST /stablecoin-provider-accounts)", ErrNoLink)
}

// RequestEnablement is a platform's request to enable a stablecoin for the
// Service's operations: accepted from NOT_ENABLED (it becomes
// PENDING_APPROVAL) and repeated harmlessly while PENDING_APPROVAL; from any
// other state ErrNotRequestable.
func RequestEnablement(s OpsStatus) (OpsStatus, error) {
	switch s {
	case OpsNotEnabled, OpsPendingApproval:
		return OpsPendingApproval, nil
	}
	return s, fmt.Errorf("%w: enablement cannot be requested while the stablecoin is %s", ErrNotRequestable, s)
}

// operatorMoves are the enablement moves the Service operator makes:
// approve (ENABLING), finish (ENABLED), decline (back to NOT_ENABLED),
// disable and re-enable.
var operatorMoves = map[OpsStatus][]OpsStatus{
	OpsPendingApproval: {OpsEnabling, OpsNotEnabled},
	OpsEnabling:        {OpsEnabled, OpsNotEnabled},
	OpsEnabled:         {OpsDisabled},
	OpsDisabled:        {OpsEnabled},
}

// OperatorSet checks an operator's move of the enablement state.
func OperatorSet(from, to OpsStatus) error {
	for _, s := range operatorMoves[from] {
		if s == to {
			return nil
		}
	}
	return fmt.Errorf("%w: serviceOperationsStatus cannot move from %s to %s", ErrTransition, from, to)
}

// FiatDecimals is the exponent of the base currencies (cents).
const FiatDecimals = 2

// Amount parses a digit-string amount in the token's smallest unit and
// returns it with its fiat value in cents. It must convert exactly to whole
// cents at the token's decimals (ErrNotRepresentable): with 6 decimals, a
// multiple of 10^4. Malformed amounts are field errors on field. With fewer
// decimals than cents every amount is whole cents, scaled up, and one whose
// cents would overflow an int64 is out of range.
func Amount(field, s string, decimals int) (units, cents int64, err error) {
	var fe validate.Errors
	if !fe.Required(field, s) {
		return 0, 0, fe.Err()
	}
	if strings.TrimLeft(s, "0123456789") != "" {
		fe.Add(field, &validate.Constraint{Pattern: "^[0-9]+$"}, "%s must be a string of digits", field)
		return 0, 0, fe.Err()
	}
	units, perr := strconv.ParseInt(s, 10, 64)
	switch {
	case perr != nil:
		fe.Add(field, nil, "%s is out of range", field)
	case units == 0:
		fe.Add(field, nil, "%s must be positive", field)
	}
	if err := fe.Err(); err != nil {
		return 0, 0, err
	}
	if decimals <= FiatDecimals {
		scale := pow10(FiatDecimals - decimals)
		if units > (1<<63-1)/scale {
			fe.Add(field, nil, "%s is out of range", field)
			return 0, 0, fe.Err()
		}
		return units, units * scale, nil
	}
	per := pow10(decimals - FiatDecimals) // token units per cent
	if per == 0 || units%per != 0 {
		return 0, 0, fmt.Errorf("%w: %s smallest units is not a whole number of cents at %d decimals (use a multiple of %d)", ErrNotRepresentable, s, decimals, per)
	}
	return units, units / per, nil
}

// pow10 returns 10^n, or 0 when it does not fit an int64. n is a token's
// decimals, which the provider supplies: the loop is bounded by the check
// on n, not by an input value.
func pow10(n int) int64 {
	if n > 18 {
		return 0
	}
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// opMoves is the operation lifecycle: funding, the provider's steps, and
// the terminal states (COMPLETED, FAILED, EXPIRED: those with no move).
// Only an operation awaiting funding can expire.
var opMoves = map[OpStatus][]OpStatus{
	OpCreated:         {OpPendingProvider, OpProcessing, OpCompleted, OpFailed},
	OpPendingFunding:  {OpPendingProvider, OpProcessing, OpFailed, OpExpired},
	OpPendingProvider: {OpProcessing, OpCompleted, OpFailed},
	OpProcessing:      {OpCompleted, OpFailed},
}

// CanMove reports whether an operation may move from one state to another.
func CanMove(from, to OpStatus) bool {
	for _, s := range opMoves[from] {
		if s == to {
			return true
		}
	}
	return false
}

// Terminal reports whether s is final.
func Terminal(s OpStatus) bool { return len(opMoves[s]) == 0 }

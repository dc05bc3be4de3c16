package accounts

import (
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/rails"
)

// The webhook events of package accounts (reference WebhookType). The
// reference's INTERNAL_ACCOUNT.STATUS_UPDATED and
// INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED are never sent: an internal
// account stays ACTIVE with the funding instructions it opened with.
const (
	// EventInternalAccountBalanceUpdated is sent when an internal
	// account's balance changes (funded, debited, credited, held or
	// released), in the transaction that changed it; its data is the
	// account as the API shows it after the change (InternalAccountOf).
	EventInternalAccountBalanceUpdated engine.EventType = "INTERNAL_ACCOUNT.BALANCE_UPDATED"
	// EventExternalAccountStatusUpdated is sent when an ownership proof
	// changes an external account's status; its data is the account
	// (ExternalAccountOf).
	EventExternalAccountStatusUpdated engine.EventType = "EXTERNAL_ACCOUNT.STATUS_UPDATED"
)

// InternalAccountOf decodes the internal account an
// INTERNAL_ACCOUNT.BALANCE_UPDATED event carries; another event is
// INVALID_INPUT.
func InternalAccountOf(ev engine.Event) (*InternalAccountView, error) {
	return engine.DataOf[InternalAccountView](ev, EventInternalAccountBalanceUpdated)
}

// ExternalAccountOf decodes the external account an
// EXTERNAL_ACCOUNT.STATUS_UPDATED event carries; another event is
// INVALID_INPUT.
func ExternalAccountOf(ev engine.Event) (*rails.ExternalAccount, error) {
	return engine.DataOf[rails.ExternalAccount](ev, EventExternalAccountStatusUpdated)
}

package accounts

import (
	"strconv"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/rails"
)

// ExternalAccount is a bank account or wallet outside the platform
// (rails.ExternalAccount: a rail receives it, so the rails package defines
// it and this area serves it).
type ExternalAccount = rails.ExternalAccount

// External account tables: records by id (ExternalRecord), the index
// "<owner>|<id>" -> id (owner is the customer id or "platform"), and the
// unique index of equivalent accounts (ExternalRecord.UniqueKey -> id).
// tableExternalAccounts is exported because package stablecoins reads
// records from it directly; the indexes are this area's alone.
const (
	tableExternalAccounts        = "external_accounts"
	tableExternalAccountsByOwner = "external_accounts_by_owner"
	tableExternalAccountsUnique  = "external_accounts_unique"
)

// ExternalRecord is an ExternalAccount as stored, with the area's own
// state beside it. The API never shows this state: views are of the
// embedded ExternalAccount.
type ExternalRecord struct {
	rails.ExternalAccount
	// UniqueKey is "<owner>|<accountType>|<identifier, lower case>", plus
	// "|<routingNumber>" for bank accounts with one: equivalent accounts of
	// one owner share it, which makes them DUPLICATE_EXTERNAL_ACCOUNT.
	UniqueKey string `json:"uniqueKey"`
	// Trusted: the customer confirmed the account as a trusted beneficiary
	// (StartTrust, ConfirmTrust); it cannot be deleted while trusted.
	Trusted bool `json:"trusted,omitempty"`
	// ValidationEndsAt is the end of the rail's micro-entry validation;
	// before it the account receives nothing
	// (BANK_ACCOUNT_VALIDATION_PENDING).
	ValidationEndsAt time.Time `json:"validationEndsAt,omitzero"`
	// Challenge is the outstanding ownership challenge of a wallet.
	Challenge *OwnershipChallenge `json:"challenge,omitempty"`
	// TrustChallenge is the outstanding trust or untrust challenge.
	TrustChallenge *trustChallenge `json:"trustChallenge,omitempty"`
	// Type is AccountType(), derived once for a record shared through the
	// accounts area's cache (Prepare), since pricing asks for it at every
	// payout.
	Type string `json:"-"`
}

var _ engine.Preparer = (*ExternalRecord)(nil)

// Prepare derives Type once, when the record is decoded into the accounts
// area's cache (engine.Preparer).
func (r *ExternalRecord) Prepare() { r.Type = r.AccountType() }

// OwnershipThreshold is the largest amount, in major units of the wallet's
// currency, that may be sent to a wallet still
// PENDING_OWNERSHIP_VERIFICATION (a transfer under the regulatory
// threshold); UsableDestination converts it to minor units.
const OwnershipThreshold int64 = 1_000

// AppendExternalAccount appends json.Marshal(a) to b (the hand-written
// codec of amounts_codec.go, for the external account that a payout intent
// embeds).
func AppendExternalAccount(b []byte, a *rails.ExternalAccount) ([]byte, error) {
	b = append(b, '{')
	b = engine.StringMember(b, "id", a.ID, false)
	b = engine.StringMember(b, "customerId", a.CustomerID, true)
	b = engine.StringMember(b, "status", string(a.Status), false)
	b = engine.StringMember(b, "platformAccountId", a.PlatformAccountID, true)
	b = engine.StringMember(b, "ownershipType", a.OwnershipType, true)
	b = engine.StringMember(b, "currency", a.Currency, false)
	b = strconv.AppendBool(engine.Member(b, "defaultUmaDepositAccount"), a.DefaultUmaDepositAccount)
	b = engine.StringMember(b, "beneficiaryVerificationStatus", a.BeneficiaryVerificationStatus, true)
	var err error
	if a.BeneficiaryVerifiedData != nil {
		if b, err = engine.MarshaledMember(b, "beneficiaryVerifiedData", a.BeneficiaryVerifiedData); err != nil {
			return nil, err
		}
	}
	if b, err = engine.AppendRaw(engine.Member(b, "accountInfo"), a.AccountInfo); err != nil {
		return nil, err
	}
	if b, err = engine.TimeMember(b, "createdAt", a.CreatedAt); err != nil {
		return nil, err
	}
	if b, err = engine.TimeMember(b, "updatedAt", a.UpdatedAt); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

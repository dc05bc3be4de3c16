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
// TableExternalAccounts is exported because package stablecoins reads
// records from it directly; the indexes are this area's alone.
const (
	TableExternalAccounts        = "external_accounts"
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

// External loads an external account inside t: ACCOUNT_NOT_FOUND when
// absent. It does not check the owner's side; callers that serve one Scope
// compare CustomerID themselves.
func External(t *engine.Txn, id string) (*rails.ExternalAccount, error) {
	r, err := ExternalRecordOf(t, id)
	if err != nil {
		return nil, err
	}
	return &r.ExternalAccount, nil
}

// ExternalRecordOf loads an external account as stored inside t:
// ACCOUNT_NOT_FOUND when absent. A caller that changes it writes it back
// in the same transaction.
func ExternalRecordOf(t *engine.Txn, id string) (*ExternalRecord, error) {
	var r ExternalRecord
	if err := engine.GetJSON(t, TableExternalAccounts, id, &r); err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "external account", id)
	}
	return &r, nil
}

// SharedExternal is ExternalRecordOf for reading only: the record it
// returns comes from the accounts area's read cache and may be shared with
// other transactions, so it must not be changed (quotes read a payout's
// destination through it).
func SharedExternal(t *engine.Txn, id string) (*ExternalRecord, error) {
	r, err := accountsSlot.Of(t.Handle).externals.Get(t, TableExternalAccounts, id)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "external account", id)
	}
	return r, nil
}

// OwnershipThreshold is the largest amount, in major units of the wallet's
// currency, that may be sent to a wallet still
// PENDING_OWNERSHIP_VERIFICATION (a transfer under the regulatory
// threshold, spec 3.1); UsableDestination converts it to minor units.
const OwnershipThreshold int64 = 1_000

// UsableDestination reports whether amount (minor units of a.Currency) may be
// sent to a now: INVALID_BANK_ACCOUNT for inactive accounts,
// EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED for wallets whose ownership is
// unproven above OwnershipThreshold major units (or that failed it),
// BANK_ACCOUNT_VALIDATION_PENDING during micro-entry validation (with
// validationEndsAt in the details). Deadlines are judged on t's clock.
// The quotes area asks it when it creates a quote to an external account.
func UsableDestination(t *engine.Txn, r *ExternalRecord, amount int64) error {
	a := &r.ExternalAccount
	switch a.Status {
	case rails.ExternalInactive:
		return engine.Errorf(engine.CodeInvalidBankAccount, "external account %s is inactive", a.ID)
	case rails.ExternalUnverified:
		return engine.Errorf(engine.CodeExternalAccountVerificationReq, "external account %s failed ownership verification; start a new challenge", a.ID)
	case rails.ExternalPendingOwnershipVerification:
		if amount > majorUnits(a.Currency, OwnershipThreshold) {
			return engine.Errorf(engine.CodeExternalAccountVerificationReq, "verify the ownership of wallet %s before sending more than %d %s", a.ID, OwnershipThreshold, a.Currency)
		}
	}
	if t.Now.Before(r.ValidationEndsAt) {
		return &engine.Error{Code: engine.CodeBankAccountValidationPending, Message: "the account is still being validated by micro-entry; retry after " + r.ValidationEndsAt.Format(time.RFC3339),
			Details: map[string]any{"validationEndsAt": r.ValidationEndsAt}}
	}
	return nil
}

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

// InsertExternal stores a as it is: for fixtures that set external
// accounts up directly (the engine's tests). It writes no owner or
// uniqueness index entry, so such an account is not listed and has no
// UniqueKey.
func InsertExternal(t *engine.Txn, a ExternalAccount) error {
	return engine.InsertJSON(t, TableExternalAccounts, a.ID, a)
}

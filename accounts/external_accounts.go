package accounts

import (
	"strconv"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/rails"
)

// External account tables: records by id, the index "<owner>|<id>" -> id
// (owner is the customer id or "platform"), and the unique index of
// equivalent accounts.
// ExternalAccount is a bank account or wallet outside the platform
// (rails.ExternalAccount: a rail receives it).
type ExternalAccount = rails.ExternalAccount

const (
	TableExternalAccounts        = "external_accounts"
	tableExternalAccountsByOwner = "external_accounts_by_owner"
	tableExternalAccountsUnique  = "external_accounts_unique"
)

// ExternalRecord is an ExternalAccount as stored, with the engine's own
// state beside it.
type ExternalRecord struct {
	rails.ExternalAccount
	UniqueKey        string              `json:"uniqueKey"`
	Trusted          bool                `json:"trusted,omitempty"`
	ValidationEndsAt time.Time           `json:"validationEndsAt,omitzero"`
	Challenge        *OwnershipChallenge `json:"challenge,omitempty"`
	TrustChallenge   *trustChallenge     `json:"trustChallenge,omitempty"`
	// accountType is AccountType(), derived once for a record shared
	// through the accounts area's cache (Prepare).
	Type string
}

var _ engine.Preparer = (*ExternalRecord)(nil)

// Prepare derives accountType once, when the record is decoded into the
// accounts area's cache (engine.Preparer).
func (r *ExternalRecord) Prepare() { r.Type = r.AccountType() }

// External loads an external account: ACCOUNT_NOT_FOUND when absent.
func External(t *engine.Txn, id string) (*rails.ExternalAccount, error) {
	r, err := ExternalRecordOf(t, id)
	if err != nil {
		return nil, err
	}
	return &r.ExternalAccount, nil
}

func ExternalRecordOf(t *engine.Txn, id string) (*ExternalRecord, error) {
	var r ExternalRecord
	if err := engine.GetJSON(t, TableExternalAccounts, id, &r); err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "external account", id)
	}
	return &r, nil
}

// SharedExternal is externalRecord for reading only: the record it
// returns may be shared with other transactions (Engine.externals) and must
// not be changed.
func SharedExternal(t *engine.Txn, id string) (*ExternalRecord, error) {
	r, err := accountsSlot.Of(t.Handle).externals.Get(t, TableExternalAccounts, id)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "external account", id)
	}
	return r, nil
}

// OwnershipThreshold is the largest amount (in minor units) that may be sent
// to a wallet still PENDING_OWNERSHIP_VERIFICATION (a transfer under the
// regulatory threshold, spec 3.1): the equivalent of 1,000 major units.
const OwnershipThreshold int64 = 1_000

// UsableDestination reports whether amount (minor units of a.Currency) may be
// sent to a now: INVALID_BANK_ACCOUNT for inactive accounts,
// EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED for wallets whose ownership is
// unproven above OwnershipThreshold major units (or that failed it),
// BANK_ACCOUNT_VALIDATION_PENDING during micro-entry validation.
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

// AppendExternalAccount appends json.Marshal(a).
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
// accounts up directly (the engine's tests).
func InsertExternal(t *engine.Txn, a ExternalAccount) error {
	return engine.InsertJSON(t, TableExternalAccounts, a.ID, a)
}

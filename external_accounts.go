package payments

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/paygrid/payments/internal/engine"
)

// External account tables: records by id, the index "<owner>|<id>" -> id
// (owner is the customer id or "platform"), and the unique index of
// equivalent accounts.
const (
	tableExternalAccounts        = "external_accounts"
	tableExternalAccountsByOwner = "external_accounts_by_owner"
	tableExternalAccountsUnique  = "external_accounts_unique"
)

// ExternalAccountStatus is the status of an external account (spec 3.1).
type ExternalAccountStatus string

// External account statuses.
const (
	ExternalPending                      ExternalAccountStatus = "PENDING"
	ExternalActive                       ExternalAccountStatus = "ACTIVE"
	ExternalPendingOwnershipVerification ExternalAccountStatus = "PENDING_OWNERSHIP_VERIFICATION"
	ExternalUnverified                   ExternalAccountStatus = "UNVERIFIED"
	ExternalUnderReview                  ExternalAccountStatus = "UNDER_REVIEW"
	ExternalInactive                     ExternalAccountStatus = "INACTIVE"
)

// BeneficiaryVerifiedData is the holder's name as the rail returned it.
type BeneficiaryVerifiedData struct {
	FullName string `json:"fullName,omitempty"`
}

// ExternalAccount is a bank account or wallet outside the platform, owned by
// a customer or (CustomerID empty) by the platform. AccountInfo is the
// validated accountInfo object as the API shows it (with paymentRails for
// bank accounts), discriminated by its accountType member.
type ExternalAccount struct {
	ID                            string                   `json:"id"`
	CustomerID                    string                   `json:"customerId,omitempty"`
	Status                        ExternalAccountStatus    `json:"status"`
	PlatformAccountID             string                   `json:"platformAccountId,omitempty"`
	OwnershipType                 string                   `json:"ownershipType,omitempty"`
	Currency                      string                   `json:"currency"`
	DefaultUmaDepositAccount      bool                     `json:"defaultUmaDepositAccount"`
	BeneficiaryVerificationStatus string                   `json:"beneficiaryVerificationStatus,omitempty"`
	BeneficiaryVerifiedData       *BeneficiaryVerifiedData `json:"beneficiaryVerifiedData,omitempty"`
	AccountInfo                   json.RawMessage          `json:"accountInfo"`
	CreatedAt                     time.Time                `json:"createdAt"`
	UpdatedAt                     time.Time                `json:"updatedAt"`
}

// identifiers are the accountInfo members that can hold an account's
// primary identifier, in the order Identifier prefers them (most specific
// first).
type identifiers struct {
	IBAN             infoString `json:"iban"`
	CLABE            infoString `json:"clabeNumber"`
	AccountNumber    infoString `json:"accountNumber"`
	Address          infoString `json:"address"`
	PixKey           infoString `json:"pixKey"`
	PhoneNumber      infoString `json:"phoneNumber"`
	VPA              infoString `json:"vpa"`
	Invoice          infoString `json:"invoice"`
	Bolt12           infoString `json:"bolt12"`
	LightningAddress infoString `json:"lightningAddress"`
	SwiftCode        infoString `json:"swiftCode"`
}

// infoString is an accountInfo member read as a string: a value of another
// type reads as "". Like any member, the last of repeated ones counts.
type infoString string

func (s *infoString) UnmarshalJSON(b []byte) error {
	*s = ""
	if len(b) < 2 || b[0] != '"' {
		return nil
	}
	if plain := b[1 : len(b)-1]; bytes.IndexByte(plain, '\\') < 0 && utf8.Valid(plain) {
		*s = infoString(plain)
		return nil
	}
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = infoString(v)
	return nil
}

// clone returns a copy of a (nil for nil) that shares nothing.
func (a *ExternalAccount) clone() *ExternalAccount {
	if a == nil {
		return nil
	}
	c := *a
	c.BeneficiaryVerifiedData = engine.ClonePtr(a.BeneficiaryVerifiedData)
	c.AccountInfo = bytes.Clone(a.AccountInfo)
	return &c
}

// Info returns the accountInfo members (a fresh map).
func (a *ExternalAccount) Info() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(a.AccountInfo, &m)
	return m
}

// AccountType returns accountInfo.accountType.
func (a *ExternalAccount) AccountType() string {
	// Only accountType is decoded (Info would build every nested object
	// too): pricing asks for the type of every payout's account.
	var top struct {
		AccountType infoString `json:"accountType"`
	}
	if json.Unmarshal(a.AccountInfo, &top) != nil {
		return ""
	}
	return string(top.AccountType)
}

// Identifier returns the account's primary identifier (account number, IBAN,
// CLABE, wallet address, ...): the sandbox steers scenarios by its last three
// characters.
func (a *ExternalAccount) Identifier() string {
	var ids identifiers
	if json.Unmarshal(a.AccountInfo, &ids) != nil {
		return ""
	}
	for _, s := range [...]infoString{ids.IBAN, ids.CLABE, ids.AccountNumber, ids.Address, ids.PixKey,
		ids.PhoneNumber, ids.VPA, ids.Invoice, ids.Bolt12, ids.LightningAddress, ids.SwiftCode} {
		if s != "" {
			return string(s)
		}
	}
	return ""
}

// Owner returns the owner key of the account.
func (a *ExternalAccount) Owner() string {
	if a.CustomerID == "" {
		return PlatformOwner
	}
	return a.CustomerID
}

// externalRecord is an ExternalAccount as stored, with the engine's own
// state beside it.
type externalRecord struct {
	ExternalAccount
	UniqueKey        string              `json:"uniqueKey"`
	Trusted          bool                `json:"trusted,omitempty"`
	ValidationEndsAt time.Time           `json:"validationEndsAt,omitzero"`
	Challenge        *OwnershipChallenge `json:"challenge,omitempty"`
	TrustChallenge   *trustChallenge     `json:"trustChallenge,omitempty"`
	// accountType is AccountType(), derived once for a record shared
	// through the accounts area's cache (Prepare).
	accountType string
}

var _ engine.Preparer = (*externalRecord)(nil)

// Prepare derives accountType once, when the record is decoded into the
// accounts area's cache (engine.Preparer).
func (r *externalRecord) Prepare() { r.accountType = r.AccountType() }

// externalAccount loads an external account: ACCOUNT_NOT_FOUND when absent.
func externalAccount(t *engine.Txn, id string) (*ExternalAccount, error) {
	r, err := externalRecordOf(t, id)
	if err != nil {
		return nil, err
	}
	return &r.ExternalAccount, nil
}

func externalRecordOf(t *engine.Txn, id string) (*externalRecord, error) {
	var r externalRecord
	if err := engine.GetJSON(t, tableExternalAccounts, id, &r); err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "external account", id)
	}
	return &r, nil
}

// sharedExternalRecord is externalRecord for reading only: the record it
// returns may be shared with other transactions (Engine.externals) and must
// not be changed.
func sharedExternalRecord(t *engine.Txn, id string) (*externalRecord, error) {
	r, err := accountsSlot.Of(t.Handle).externals.Get(t, tableExternalAccounts, id)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "external account", id)
	}
	return r, nil
}

// OwnershipThreshold is the largest amount (in minor units) that may be sent
// to a wallet still PENDING_OWNERSHIP_VERIFICATION (a transfer under the
// regulatory threshold, spec 3.1): the equivalent of 1,000 major units.
const OwnershipThreshold int64 = 1_000

// usableDestination reports whether amount (minor units of a.Currency) may be
// sent to a now: INVALID_BANK_ACCOUNT for inactive accounts,
// EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED for wallets whose ownership is
// unproven above OwnershipThreshold major units (or that failed it),
// BANK_ACCOUNT_VALIDATION_PENDING during micro-entry validation.
func usableDestination(t *engine.Txn, r *externalRecord, amount int64) error {
	a := &r.ExternalAccount
	switch a.Status {
	case ExternalInactive:
		return engine.Errorf(engine.CodeInvalidBankAccount, "external account %s is inactive", a.ID)
	case ExternalUnverified:
		return engine.Errorf(engine.CodeExternalAccountVerificationReq, "external account %s failed ownership verification; start a new challenge", a.ID)
	case ExternalPendingOwnershipVerification:
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

// appendExternalAccount appends json.Marshal(a).
func appendExternalAccount(b []byte, a *ExternalAccount) ([]byte, error) {
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

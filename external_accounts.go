package payments

import (
	"encoding/json"
	"time"
)

// TableExternalAccounts holds external accounts by id.
const TableExternalAccounts = "external_accounts"

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
// validated accountInfo object as the API shows it, discriminated by its
// accountType member. The fields here are the ones every area relies on; the
// accounts area adds the rest.
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

// identifierFields are the accountInfo members that can hold an account's
// primary identifier, most specific first.
var identifierFields = []string{"iban", "clabeNumber", "accountNumber", "address", "pixKey", "phoneNumber",
	"invoice", "bolt12", "lightningAddress", "swiftCode"}

// AccountType returns accountInfo.accountType.
func (a *ExternalAccount) AccountType() string {
	var v struct {
		AccountType string `json:"accountType"`
	}
	_ = json.Unmarshal(a.AccountInfo, &v)
	return v.AccountType
}

// Identifier returns the account's primary identifier (account number, IBAN,
// CLABE, wallet address, ...): the sandbox steers scenarios by its last three
// characters.
func (a *ExternalAccount) Identifier() string {
	var m map[string]any
	_ = json.Unmarshal(a.AccountInfo, &m)
	for _, f := range identifierFields {
		if s, ok := m[f].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// externalAccount loads an external account: ACCOUNT_NOT_FOUND when absent.
func (t *txn) externalAccount(id string) (*ExternalAccount, error) {
	var a ExternalAccount
	if err := getJSON(t, TableExternalAccounts, id, &a); err != nil {
		return nil, notFound(err, CodeAccountNotFound, "external account", id)
	}
	return &a, nil
}

// usableDestination reports whether money may be sent to a now: nil, or the
// reason it may not (EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED,
// BANK_ACCOUNT_VALIDATION_PENDING, ...). The accounts area owns the rules.
func (t *txn) usableDestination(a *ExternalAccount, amount int64) error {
	switch a.Status {
	case ExternalInactive:
		return Errorf(CodeInvalidBankAccount, "external account %s is inactive", a.ID)
	}
	return nil
}

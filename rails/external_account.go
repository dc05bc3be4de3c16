package rails

// ExternalAccount is the record of the accounts area (package accounts
// serves it), defined here because a rail receives it: it checks new ones
// (Rail.CheckAccount) and pays out to them (OutgoingPayment.Destination).

import (
	"bytes"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/paygrid/payments/internal/engine"
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
func (a *ExternalAccount) Clone() *ExternalAccount {
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
		return engine.PlatformOwner
	}
	return a.CustomerID
}

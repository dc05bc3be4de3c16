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
	"github.com/paygrid/payments/internal/jsonx"
)

// ExternalAccountStatus is the status of an external account.
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
	// Only accountType is read (Info would build every nested object too):
	// pricing asks for the type of every payout's account.
	var typ infoString
	if infoMembers(a.AccountInfo, func(name, value []byte) {
		if bytes.EqualFold(name, accountTypeName) {
			_ = typ.UnmarshalJSON(value)
		}
	}) {
		return string(typ)
	}
	var top struct {
		AccountType infoString `json:"accountType"`
	}
	if json.Unmarshal(a.AccountInfo, &top) != nil {
		return ""
	}
	return string(top.AccountType)
}

var accountTypeName = []byte("accountType")

// identifierNames are the members of identifiers, in its order.
var identifierNames = [...][]byte{[]byte("iban"), []byte("clabeNumber"), []byte("accountNumber"), []byte("address"), []byte("pixKey"),
	[]byte("phoneNumber"), []byte("vpa"), []byte("invoice"), []byte("bolt12"), []byte("lightningAddress"), []byte("swiftCode")}

// Identifier returns the account's primary identifier (account number, IBAN,
// CLABE, wallet address, ...): the sandbox steers scenarios by its last three
// characters.
func (a *ExternalAccount) Identifier() string {
	var found [len(identifierNames)]infoString
	if !infoMembers(a.AccountInfo, func(name, value []byte) {
		for i, n := range identifierNames {
			// An ASCII first letter other than n's, in either case, rules n
			// out (another first byte may fold to it: ſ to s).
			if len(name) > 0 && name[0] < utf8.RuneSelf && name[0]|0x20 != n[0] {
				continue
			}
			if bytes.EqualFold(name, n) {
				_ = found[i].UnmarshalJSON(value)
				return
			}
		}
	}) {
		var ids identifiers
		if json.Unmarshal(a.AccountInfo, &ids) != nil {
			return ""
		}
		found = [...]infoString{ids.IBAN, ids.CLABE, ids.AccountNumber, ids.Address, ids.PixKey,
			ids.PhoneNumber, ids.VPA, ids.Invoice, ids.Bolt12, ids.LightningAddress, ids.SwiftCode}
	}
	for _, s := range found {
		if s != "" {
			return string(s)
		}
	}
	return ""
}

// infoMembers calls f with the name and raw value of each member of the
// accountInfo object info, in order, reading it in place, as decoding info
// into a struct of string members would see them (encoding/json matches
// names without regard to case, as bytes.EqualFold, and the last of
// repeated members counts). It reports false, having called f for nothing,
// when it cannot say: info is not valid JSON, a name holds an escape;
// callers then decode info. Valid JSON that is not an object has no
// members. Every payout asks the sandbox rail for its account's identifier
// and pricing for its type: decoding info for one member cost more than
// the rest of the rail's decision.
func infoMembers(info []byte, f func(name, value []byte)) bool {
	if !json.Valid(info) {
		return false
	}
	i := jsonx.SkipSpace(info, 0)
	if info[i] != '{' {
		return true // null: no members; another value: callers' decoding fails alike
	}
	// The members are noted and handed to f at the end, once every name
	// is known to hold no escape.
	type member struct{ name, value [2]int }
	var buf [16]member
	ms := buf[:0]
	for i++; ; {
		i = jsonx.SkipSpace(info, i)
		switch info[i] {
		case '}':
			for _, m := range ms {
				f(info[m.name[0]:m.name[1]], info[m.value[0]:m.value[1]])
			}
			return true
		case ',':
			i = jsonx.SkipSpace(info, i+1)
		}
		end := skipString(info, i)
		if bytes.IndexByte(info[i+1:end-1], '\\') >= 0 {
			return false
		}
		name := [2]int{i + 1, end - 1}
		i = jsonx.SkipSpace(info, end) // at ':'
		i = jsonx.SkipSpace(info, i+1) // at the value
		vend := skipValue(info, i)
		ms = append(ms, member{name, [2]int{i, vend}})
		i = vend
	}
}

// skipString returns the index after the string of valid JSON b starting at
// i.
func skipString(b []byte, i int) int {
	for i++; ; i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
}

// skipValue returns the index after the value of valid JSON b starting at i.
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		for depth := 0; ; i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
		i++
	}
	return i
}

// Owner returns the owner key of the account.
func (a *ExternalAccount) Owner() string {
	if a.CustomerID == "" {
		return engine.PlatformOwner
	}
	return a.CustomerID
}

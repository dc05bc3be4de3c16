package sandbox

import (
	"context"
	"strings"
	"time"

	"github.com/paygrid/payments"
)

// Suffix returns the sandbox scenario code of an account identifier: its
// last three characters, taken from the local part when it has a domain
// ("testuser.002@pix.com.br" -> "002"; wire-facts 1.4).
func Suffix(identifier string) string {
	if at := strings.IndexByte(identifier, '@'); at >= 0 {
		identifier = identifier[:at]
	}
	if len(identifier) < 3 {
		return ""
	}
	return identifier[len(identifier)-3:]
}

// beneficiaryRules are the beneficiary-name results of the 1xx suffixes.
var beneficiaryRules = map[string]string{
	"102": "NOT_MATCHED",
	"103": "PARTIAL_MATCH",
	"104": "PENDING",
	"106": "UNSUPPORTED",
	"107": "CHECKED_BY_RECEIVING_FI",
}

// MicroEntrySuffix puts a new USD account into micro-entry validation for
// MicroEntryPeriod (two banking days); sending to it earlier answers
// BANK_ACCOUNT_VALIDATION_PENDING.
const (
	MicroEntrySuffix = "108"
	MicroEntryPeriod = 48 * time.Hour
)

// Rail is the sandbox payment rail. It checks new external accounts by the
// suffix of their primary identifier (wire-facts 1.4): 102 NOT_MATCHED, 103
// PARTIAL_MATCH, 104 PENDING, 105 refused (INVALID_BANK_ACCOUNT), 106
// UNSUPPORTED, 107 CHECKED_BY_RECEIVING_FI, 108 micro-entry validation (USD
// accounts), any other MATCHED (wallets and Lightning: UNSUPPORTED).
type Rail struct{}

var _ payments.Rail = Rail{}

// Name implements payments.Rail.
func (Rail) Name() string { return "sandbox" }

// CheckAccount implements payments.Rail.
func (Rail) CheckAccount(_ context.Context, a *payments.ExternalAccount) (payments.AccountCheck, error) {
	sfx := Suffix(a.Identifier())
	if sfx == "105" {
		return payments.AccountCheck{}, payments.Errorf(payments.CodeInvalidBankAccount, "the receiving bank refused account %s (sandbox suffix 105)", a.Identifier())
	}
	var check payments.AccountCheck
	if strings.HasSuffix(a.AccountType(), "_WALLET") || strings.HasPrefix(a.AccountType(), "LIGHTNING") {
		check.BeneficiaryStatus = "UNSUPPORTED"
		return check, nil
	}
	check.BeneficiaryStatus = "MATCHED"
	if s, ok := beneficiaryRules[sfx]; ok {
		check.BeneficiaryStatus = s
	}
	if check.BeneficiaryStatus == "MATCHED" || check.BeneficiaryStatus == "PARTIAL_MATCH" {
		check.VerifiedName = beneficiaryName(a)
	}
	if sfx == MicroEntrySuffix && a.AccountType() == "USD_ACCOUNT" {
		check.ValidationPeriod = MicroEntryPeriod
	}
	return check, nil
}

// Send implements payments.Rail.
func (Rail) Send(context.Context, payments.OutgoingPayment) error { return nil }

func beneficiaryName(a *payments.ExternalAccount) string {
	info := a.Info()
	b, _ := info["beneficiary"].(map[string]any)
	if n, _ := b["fullName"].(string); n != "" {
		return n
	}
	n, _ := b["legalName"].(string)
	return n
}

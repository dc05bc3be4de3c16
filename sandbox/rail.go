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

// SlowPayment is how long a 003 payment and $pending.long.usd take.
const SlowPayment = 6 * time.Minute

// ReturnAfter is when a 005 payment comes back.
const ReturnAfter = 10 * time.Minute

// payoutRules are the outcomes of destination suffixes (wire-facts 1.6).
var payoutRules = map[string][]payments.SettlementStep{
	"002": {{Outcome: payments.SettleFailed, FailureReason: "QUOTE_EXECUTION_FAILED", RefundReason: "TRANSACTION_FAILED"}},
	"003": {{After: SlowPayment, Outcome: payments.SettleCompleted}},
	"004": {{Outcome: payments.SettleFailed, FailureReason: "ACCOUNT_CANNOT_RECEIVE", RefundReason: "TRANSACTION_FAILED"}},
	"005": {{Outcome: payments.SettleCompleted}, {After: ReturnAfter, Outcome: payments.SettleReturned, FailureReason: "PAYOUT_RETURNED", RefundReason: "TRANSACTION_FAILED"}},
	"006": {{Outcome: payments.SettleFailed, FailureReason: "QUOTE_EXECUTION_FAILED", RefundReason: "USER_CANCELLATION"}},
	"007": {{Outcome: payments.SettleFailed, FailureReason: "COUNTERPARTY_POST_TX_FAILED", RefundFails: true}},
}

// Send implements payments.Rail: external destinations of quotes settle by
// the suffix of their identifier (002 fails, 003 completes after six
// minutes, 004 cannot receive, 005 completes then is returned, 006 is
// cancelled, 007 fails and its refund fails too; others complete at once),
// except that crypto wallets take the transfer table's 003 and 005;
// transfers (p.Transfer) settle by transferRules; UMA test addresses by
// their name ($pending.long.* after six minutes, $fail.compliance.*
// rejected).
func (Rail) Send(_ context.Context, p payments.OutgoingPayment) ([]payments.SettlementStep, error) {
	if p.Destination == nil {
		user, _ := UMAUser(p.UmaAddress)
		switch {
		case strings.HasPrefix(user, "pending.long."):
			return []payments.SettlementStep{{After: SlowPayment, Outcome: payments.SettleCompleted}}, nil
		case strings.HasPrefix(user, "fail.compliance."):
			return []payments.SettlementStep{{Outcome: payments.SettleFailed, FailureReason: "COMPLIANCE_REJECTED", RefundReason: "TRANSACTION_FAILED"}}, nil
		}
		return []payments.SettlementStep{{Outcome: payments.SettleCompleted}}, nil
	}
	sfx := Suffix(p.Destination.Identifier())
	if p.Transfer || strings.HasSuffix(p.Destination.AccountType(), "_WALLET") {
		if steps, ok := transferRules[sfx]; ok && (p.Transfer || sfx == "003" || sfx == "005") {
			return steps, nil
		}
		if p.Transfer {
			return []payments.SettlementStep{{Outcome: payments.SettleCompleted}}, nil
		}
	}
	if steps, ok := payoutRules[sfx]; ok {
		return steps, nil
	}
	return []payments.SettlementStep{{Outcome: payments.SettleCompleted}}, nil
}

// TransferTimeout is how long a 005 transfer (and a 005 wallet payout)
// stays PROCESSING before it fails.
const TransferTimeout = 30 * time.Second

// transferRules are the outcomes of same-currency transfer destinations by
// suffix (wire-facts 1.5: 002 cannot receive, 003 closed or invalid, 004
// rejected by the bank, 005 times out after about 30 s, each refunded).
// Crypto wallet destinations of quotes follow its 003 (wallet unavailable)
// and 005 rows.
var transferRules = map[string][]payments.SettlementStep{
	"002": {{Outcome: payments.SettleFailed, FailureReason: "ACCOUNT_CANNOT_RECEIVE", RefundReason: "TRANSACTION_FAILED"}},
	"003": {{Outcome: payments.SettleFailed, FailureReason: "ACCOUNT_INVALID", RefundReason: "TRANSACTION_FAILED"}},
	"004": {{Outcome: payments.SettleFailed, FailureReason: "PAYOUT_RETURNED", RefundReason: "TRANSACTION_FAILED"}},
	"005": {{After: TransferTimeout, Outcome: payments.SettleFailed, FailureReason: "QUOTE_EXECUTION_FAILED", RefundReason: "TIMEOUT"}},
}

func beneficiaryName(a *payments.ExternalAccount) string {
	info := a.Info()
	b, _ := info["beneficiary"].(map[string]any)
	if n, _ := b["fullName"].(string); n != "" {
		return n
	}
	n, _ := b["legalName"].(string)
	return n
}

var _ payments.Puller = Rail{}

// pullRules are the outcomes of pulls from external accounts by suffix
// (wire-facts 1.5: 005 stays pending for TransferTimeout, then fails; and
// the spec's 009: completes, then is returned).
var pullRules = map[string][]payments.SettlementStep{
	"002": {{Outcome: payments.SettleFailed, FailureReason: "COLLECTION_FAILED"}},
	"003": {{Outcome: payments.SettleFailed, FailureReason: "COLLECTION_FAILED"}},
	"004": {{Outcome: payments.SettleFailed, FailureReason: "COMPLIANCE_REJECTED"}},
	"005": {{After: TransferTimeout, Outcome: payments.SettleFailed, FailureReason: "COLLECTION_FAILED"}},
	"009": {{Outcome: payments.SettleCompleted}, {Outcome: payments.SettleReturned, FailureReason: "COLLECTION_FAILED"}},
}

// Pull implements payments.Puller: the source account's suffix decides.
func (Rail) Pull(_ context.Context, from *payments.ExternalAccount, _ int64) ([]payments.SettlementStep, error) {
	if steps, ok := pullRules[Suffix(from.Identifier())]; ok {
		return steps, nil
	}
	return []payments.SettlementStep{{Outcome: payments.SettleCompleted}}, nil
}

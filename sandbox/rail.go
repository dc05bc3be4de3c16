package sandbox

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments"
)

// Suffix returns the sandbox scenario code of an account identifier: its
// last three characters, taken from the local part when it has a domain
// ("testuser.002@pix.com.br" -> "002").
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
// suffix of their primary identifier: 102 NOT_MATCHED, 103
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

// payoutRules are the outcomes of quote destinations by suffix.
var payoutRules = map[string][]step{
	"002": {{Outcome: payments.RailFailed, FailureReason: "QUOTE_EXECUTION_FAILED", RefundReason: "TRANSACTION_FAILED"}},
	"003": {{After: SlowPayment, Outcome: payments.RailCompleted}},
	"004": {{Outcome: payments.RailFailed, FailureReason: "ACCOUNT_CANNOT_RECEIVE", RefundReason: "TRANSACTION_FAILED"}},
	"005": {{Outcome: payments.RailCompleted}, {After: ReturnAfter, Outcome: payments.RailReturned, FailureReason: "PAYOUT_RETURNED", RefundReason: "TRANSACTION_FAILED"}},
	"006": {{Outcome: payments.RailFailed, FailureReason: "QUOTE_EXECUTION_FAILED", RefundReason: "USER_CANCELLATION"}},
	"007": {{Outcome: payments.RailFailed, FailureReason: "COUNTERPARTY_POST_TX_FAILED", RefundFails: true}},
}

// step is one outcome of a sandbox payment, After its submission.
type step struct {
	After         time.Duration
	Outcome       payments.RailOutcome
	FailureReason string
	RefundReason  string
	RefundFails   bool
}

// report announces steps to r, each taking effect After the payment's
// submission on the engine clock, with references that make a repeated
// hand-over report nothing new.
func report(ctx context.Context, r payments.Reporter, paymentID string, submitted time.Time, steps []step) error {
	for _, rep := range reports(paymentID, submitted, steps) {
		if err := r.Report(ctx, rep); err != nil {
			return err
		}
	}
	return nil
}

// reports are the reports of steps of the payment paymentID submitted at
// submitted.
func reports(paymentID string, submitted time.Time, steps []step) []payments.RailReport {
	out := make([]payments.RailReport, len(steps))
	for n, s := range steps {
		rep := payments.RailReport{PaymentID: paymentID, Reference: "sandbox-" + strconv.Itoa(n) + "-" + string(s.Outcome), Outcome: s.Outcome,
			FailureReason: s.FailureReason, RefundReason: s.RefundReason, RefundFails: s.RefundFails}
		if s.After > 0 {
			rep.At = submitted.Add(s.After)
		}
		out[n] = rep
	}
	return out
}

// Send implements payments.Rail: external destinations of quotes settle by
// the suffix of their identifier (002 fails, 003 completes after six
// minutes, 004 cannot receive, 005 completes then is returned, 006 is
// cancelled, 007 fails and its refund fails too; others complete at once),
// except that crypto wallets take the transfer table's 003 and 005;
// transfers (p.Transfer) settle by transferRules; UMA test addresses by
// their name ($pending.long.* after six minutes, $fail.compliance.*
// rejected). It reports every outcome at once, the later ones with the
// time they take effect.
func (Rail) Send(ctx context.Context, p payments.OutgoingPayment, r payments.Reporter) error {
	return report(ctx, r, p.ID, p.SubmittedAt, sendSteps(p))
}

// InstantRail is Rail settling payouts in the transaction that makes
// them (payments.InstantRail): the same checks and the same outcomes, by
// the same suffixes, applied as the payment executes instead of handed
// over after commit. Nothing leaves the process, so nothing needs a
// hand-over: a payout commits with its outcome (or, for the slow and
// returned suffixes, with its outcome's due work), in one transaction. The
// sandbox engine (New) and the sandbox server use it; Rail, which reports
// through the hand-over as a network's adapter does, is the one to embed
// in a rail of one's own.
type InstantRail struct{ Rail }

var _ payments.InstantRail = InstantRail{}

// Outcomes implements payments.InstantRail: Send's reports of p.
func (InstantRail) Outcomes(p payments.OutgoingPayment) []payments.RailReport {
	return reports(p.ID, p.SubmittedAt, sendSteps(p))
}

func sendSteps(p payments.OutgoingPayment) []step {
	if p.Destination == nil {
		user, _ := UMAUser(p.UmaAddress)
		switch {
		case strings.HasPrefix(user, "pending.long."):
			return []step{{After: SlowPayment, Outcome: payments.RailCompleted}}
		case strings.HasPrefix(user, "fail.compliance."):
			return []step{{Outcome: payments.RailFailed, FailureReason: "COMPLIANCE_REJECTED", RefundReason: "TRANSACTION_FAILED"}}
		}
		return completed
	}
	sfx := Suffix(p.Destination.Identifier())
	if p.Transfer {
		if steps, ok := transferRules[sfx]; ok {
			return steps
		}
		return completed
	}
	// The account's type matters only for the two wallet rows.
	if (sfx == "003" || sfx == "005") && strings.HasSuffix(p.Destination.AccountType(), "_WALLET") {
		return transferRules[sfx]
	}
	if steps, ok := payoutRules[sfx]; ok {
		return steps
	}
	return completed
}

// completed is the outcome of a payment no rule steers.
var completed = []step{{Outcome: payments.RailCompleted}}

// TransferTimeout is how long a 005 transfer (and a 005 wallet payout)
// stays PROCESSING before it fails.
const TransferTimeout = 30 * time.Second

// transferRules are the outcomes of same-currency transfer destinations by
// suffix (002 cannot receive, 003 closed or invalid, 004
// rejected by the bank, 005 times out after about 30 s, each refunded).
// Crypto wallet destinations of quotes follow its 003 (wallet unavailable)
// and 005 rows.
var transferRules = map[string][]step{
	"002": {{Outcome: payments.RailFailed, FailureReason: "ACCOUNT_CANNOT_RECEIVE", RefundReason: "TRANSACTION_FAILED"}},
	"003": {{Outcome: payments.RailFailed, FailureReason: "ACCOUNT_INVALID", RefundReason: "TRANSACTION_FAILED"}},
	"004": {{Outcome: payments.RailFailed, FailureReason: "PAYOUT_RETURNED", RefundReason: "TRANSACTION_FAILED"}},
	"005": {{After: TransferTimeout, Outcome: payments.RailFailed, FailureReason: "QUOTE_EXECUTION_FAILED", RefundReason: "TIMEOUT"}},
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
// (005 stays pending for TransferTimeout, then fails; 009 completes, then
// is returned).
var pullRules = map[string][]step{
	"002": {{Outcome: payments.RailFailed, FailureReason: "COLLECTION_FAILED"}},
	"003": {{Outcome: payments.RailFailed, FailureReason: "COLLECTION_FAILED"}},
	"004": {{Outcome: payments.RailFailed, FailureReason: "COMPLIANCE_REJECTED"}},
	"005": {{After: TransferTimeout, Outcome: payments.RailFailed, FailureReason: "COLLECTION_FAILED"}},
	"009": {{Outcome: payments.RailCompleted}, {Outcome: payments.RailReturned, FailureReason: "COLLECTION_FAILED"}},
}

// Pull implements payments.Puller: the source account's suffix decides.
func (Rail) Pull(ctx context.Context, p payments.PullRequest, r payments.Reporter) error {
	steps, ok := pullRules[Suffix(p.From.Identifier())]
	if !ok {
		steps = completed
	}
	return report(ctx, r, p.ID, p.SubmittedAt, steps)
}

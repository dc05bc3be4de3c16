package customers

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"

	"github.com/paygrid/payments/platform"
)

// KYCProvider verifies customers. The engine keeps every state; the provider
// only decides: the status a new customer starts in, the outcome of a
// verification submission, and which contact details must be verified by
// one-time code first. The sandbox package implements the sandbox's suffix
// rules (sandbox.KYC); a production adapter calls a real provider.
//
// A nil payments.Config.KYC (Options.KYC) gives the engine's default
// provider: individuals start
// UNVERIFIED (APPROVED on a regulated platform, which verifies its own
// customers), businesses UNVERIFIED; an incomplete packet is RESOLVE_ERRORS
// and a complete one waits in PENDING_MANUAL_REVIEW for an operator; no
// contact verification is required.
type KYCProvider interface {
	// InitialStatus returns the kycStatus (individuals) or kybStatus
	// (businesses) of a customer being created on platform p. It is asked
	// before the write transaction that creates the customer (while the
	// read transaction that loaded p is open) and may call out; an error
	// fails the creation, writing nothing.
	InitialStatus(ctx context.Context, c *Customer, p *platform.Config) (KYCStatus, error)
	// Review decides a verification submission. It is called only for
	// customers whose status is not final, before the write transaction
	// that records the decision (while the read transaction that gathered
	// the packet is open), and may call out; it may be called again for
	// one submission when the packet changed meanwhile. An error fails the
	// submission, writing nothing.
	Review(ctx context.Context, s *KYCSubmission) (KYCDecision, error)
	// ContactChecks reports which of the customer's contact details must be
	// verified by one-time code (EU customers, for example). It is called
	// inside store transactions, possibly more than once per operation, so
	// it must be a pure function of c and never block.
	ContactChecks(c *Customer) (email, phone bool)
	// ContactCode chooses a new one-time code for channel (EMAIL, PHONE,
	// SCA, or TOTP for the sandbox's fixed authenticator code). It must
	// not block: it is called before the transaction that stores the
	// code's hash, and the code is delivered after commit by the
	// CodeSender (payments.Config.Codes).
	ContactCode(channel string) string
	// SCARequired reports whether the customer's region applies Strong
	// Customer Authentication; SCA operations answer CONFLICT otherwise.
	// Like ContactChecks it runs inside transactions and must not block.
	SCARequired(c *Customer) bool
}

// KYCSubmission is what a provider reviews: the customer, the platform, the
// problems the engine found in the packet (empty when complete), whether an
// earlier submission came back RESOLVE_ERRORS, and a business's owners.
type KYCSubmission struct {
	Customer     *Customer
	Platform     *platform.Config
	Problems     []Problem
	Resubmission bool
	Owners       []BeneficialOwner
}

// KYCDecision is a provider's answer to a submission. CustomerStatus is the
// customer's new kycStatus/kybStatus; OwnerStatuses the new kycStatus of
// beneficial owners by id (businesses resolved terminally).
type KYCDecision struct {
	Status         VerificationStatus
	Problems       []Problem
	CustomerStatus KYCStatus
	OwnerStatuses  map[string]KYCStatus
}

// defaultKYC is the provider of an engine configured without one: it
// approves nothing by itself, so a production engine that forgot its
// provider leaves customers waiting for an operator rather than approving
// them.
type defaultKYC struct{}

// InitialStatus trusts a regulated platform's individuals (the platform
// verified them) and starts everyone else UNVERIFIED.

func (defaultKYC) InitialStatus(_ context.Context, c *Customer, p *platform.Config) (KYCStatus, error) {
	if p.IsRegulatedFinancialInstitution && c.CustomerType == CustomerIndividual {
		return KYCApproved, nil
	}
	return KYCUnverified, nil
}

// Review sends an incomplete packet back with its problems and parks a
// complete one in manual review.
func (defaultKYC) Review(_ context.Context, s *KYCSubmission) (KYCDecision, error) {
	if len(s.Problems) > 0 {
		return KYCDecision{Status: VerificationResolveErrors, Problems: s.Problems, CustomerStatus: s.Customer.Status()}, nil
	}
	return KYCDecision{Status: VerificationPendingManualReview, CustomerStatus: KYCPending}, nil
}

// ContactChecks requires no contact verification.
func (defaultKYC) ContactChecks(*Customer) (bool, bool) { return false, false }

// SCARequired applies SCA to no one.
func (defaultKYC) SCARequired(*Customer) bool { return false }

// ContactCode draws six random digits from crypto/rand.
func (defaultKYC) ContactCode(string) string {
	n, _ := rand.Int(rand.Reader, big.NewInt(1_000_000)) // never fails (crypto/rand panics on failure since Go 1.24)
	return fmt.Sprintf("%06d", n.Int64())
}

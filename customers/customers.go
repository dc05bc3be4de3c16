package customers

import (
	"time"

	"github.com/paygrid/payments/internal/engine"
)

// Customer tables: records by id, the unique index from UMA address to
// customer id (also used to find the receiver of incoming UMA payments,
// ByUma), and the unique index of active platformCustomerIds. The two
// unique indexes hold only customers that are not deleted, which is what
// makes both values reusable after Delete.
const (
	tableCustomers           = "customers"
	tableCustomerUma         = "customer_uma"
	tableCustomerPlatformIDs = "customer_platform_ids"
)

// CustomerType is INDIVIDUAL or BUSINESS.
type CustomerType string

// Customer types.
const (
	CustomerIndividual CustomerType = "INDIVIDUAL"
	CustomerBusiness   CustomerType = "BUSINESS"
)

// KYCStatus is the verification status of a customer (kycStatus for
// individuals, kybStatus for businesses; the same enum). It is Status,
// under the name the API and the root facade (payments.KYCStatus) use; its
// state machine is Status.Check.
type KYCStatus = Status

// Verification statuses of a customer, under the names the root facade
// re-exports (payments.KYCApproved, ...).
const (
	KYCUnverified = Unverified
	KYCPending    = Pending
	KYCApproved   = Approved
	KYCRejected   = Rejected
	KYCHold       = Hold
)

// AgreementProviderEndUserTerms is the agreement type an unregulated
// platform's customers must accept before customer-scoped money movement
// (Transacting); it is the only agreement type today.
const AgreementProviderEndUserTerms = "PROVIDER_END_USER_TERMS"

// AgreementConsent records the acceptance of one agreement (the shape of the
// reference's EndUserTermsConsentRequest plus its type).
type AgreementConsent struct {
	Type             string    `json:"type,omitempty"`
	TermsVersion     string    `json:"termsVersion"`
	AcceptedAt       time.Time `json:"acceptedAt"`
	IPAddress        string    `json:"ipAddress"`
	AcceptanceMethod string    `json:"acceptanceMethod"`
}

// ContactVerification is the state of a customer's email and phone checks;
// present only when the customer's provider requires them.
type ContactVerification struct {
	// Email and Phone are ContactPending or ContactVerified; empty when
	// the provider does not check that channel. A changed email or phone
	// is PENDING again.
	Email string `json:"email,omitempty"`
	Phone string `json:"phone,omitempty"`
}

// Contact verification states.
const (
	ContactPending  = "PENDING"
	ContactVerified = "VERIFIED"
)

// Customer is a platform's customer, an individual or a business, as the API
// shows it. The write-only tax identifier is stored beside it (Record),
// never in it, so no view can leak it. Only the status member of its type
// is set: KYCStatus for individuals, KYBStatus for businesses (Status).
type Customer struct {
	ID                 string       `json:"id"`
	PlatformCustomerID string       `json:"platformCustomerId"`
	CustomerType       CustomerType `json:"customerType"`
	UmaAddress         string       `json:"umaAddress"`
	Region             string       `json:"region,omitempty"`
	Currencies         []string     `json:"currencies,omitempty"`
	Email              string       `json:"email,omitempty"`
	PhoneNumber        string       `json:"phoneNumber,omitempty"`
	KYCStatus          KYCStatus    `json:"kycStatus,omitempty"`
	KYBStatus          KYCStatus    `json:"kybStatus,omitempty"`
	Profile
	AgreementConsents []AgreementConsent `json:"agreementConsents,omitempty"`
	// EndUserTermsConsent mirrors the PROVIDER_END_USER_TERMS entry of
	// AgreementConsents (the reference's deprecated single-purpose field).
	EndUserTermsConsent *AgreementConsent    `json:"endUserTermsConsent,omitempty"`
	BeneficialOwners    []BeneficialOwner    `json:"beneficialOwners,omitempty"` // businesses, filled on read
	ContactVerification *ContactVerification `json:"contactVerification,omitempty"`
	IsDeleted           bool                 `json:"isDeleted"`
	CreatedAt           time.Time            `json:"createdAt"`
	UpdatedAt           time.Time            `json:"updatedAt"`
}

// Status returns kycStatus for individuals and kybStatus for businesses.
func (c *Customer) Status() KYCStatus {
	if c.CustomerType == CustomerBusiness {
		return c.KYBStatus
	}
	return c.KYCStatus
}

// setStatus sets the status member of c's type.
func (c *Customer) setStatus(s KYCStatus) {
	if c.CustomerType == CustomerBusiness {
		c.KYBStatus = s
	} else {
		c.KYCStatus = s
	}
}

// AcceptedEndUserTerms reports whether the customer accepted the provider's
// end-user terms.
func (c *Customer) AcceptedEndUserTerms() bool {
	for _, a := range c.AgreementConsents {
		if a.Type == AgreementProviderEndUserTerms {
			return true
		}
	}
	return false
}

// Record is a Customer as stored: with the write-only identifier and
// the verification history the sandbox rules need. The areas above receive
// it in the hooks they serve (Options) and from RecordOf, Live and
// UpdateRecord's hook; they must not return it to clients as it is.
type Record struct {
	Customer
	Identifier string `json:"identifier,omitempty"`
	// ResolveErrorsSeen: a submission came back RESOLVE_ERRORS, so the next
	// complete one is a fixed-and-resubmitted packet, which goes to
	// PENDING_MANUAL_REVIEW.
	ResolveErrorsSeen bool `json:"resolveErrorsSeen,omitempty"`
}

// Service onboards customers and verifies them: records, KYC/KYB
// verifications and links, beneficial owners, contact verification, bulk
// import and the end-user terms. It is the facade's eng.Customers
// (payments.Customers), a value over the engine's handle, safe for
// concurrent use; on a handle with an idempotency key each write operation
// runs at most once per key.
type Service struct{ e *engine.Handle }

// NewService returns the Customers group of h (payments.New binds it to
// every handle, WithIdempotency's included).
func NewService(h *engine.Handle) Service { return Service{h} }

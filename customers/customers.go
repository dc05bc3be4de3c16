package customers

import (
	"errors"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
)

// Customer tables: records by id, the unique index from UMA address to
// customer id (also used to find the receiver of incoming UMA payments), and
// the unique index of active platformCustomerIds.
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
// individuals, kybStatus for businesses; the same enum). Its state machine
// is in package customers.
type KYCStatus = Status

// Verification statuses of a customer.
const (
	KYCUnverified = Unverified
	KYCPending    = Pending
	KYCApproved   = Approved
	KYCRejected   = Rejected
	KYCHold       = Hold
)

// AgreementProviderEndUserTerms is the agreement type an unregulated platform's
// customers must accept before customer-scoped money movement.
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
	Email string `json:"email,omitempty"` // PENDING or VERIFIED
	Phone string `json:"phone,omitempty"`
}

// Contact verification states.
const (
	ContactPending  = "PENDING"
	ContactVerified = "VERIFIED"
)

// Customer is a platform's customer, an individual or a business, as the API
// shows it. The write-only tax identifier is stored beside it, never in it.
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
// the verification history the sandbox rules need.
type Record struct {
	Customer
	Identifier string `json:"identifier,omitempty"`
	// ResolveErrorsSeen: a submission came back RESOLVE_ERRORS, so the next
	// complete one is a fixed-and-resubmitted packet (spec 3.3 rule 5).
	ResolveErrorsSeen bool `json:"resolveErrorsSeen,omitempty"`
}

// Get loads a customer: CUSTOMER_NOT_FOUND when absent.
func Get(t *engine.Txn, id string) (*Customer, error) {
	r, err := RecordOf(t, id)
	if err != nil {
		return nil, err
	}
	return &r.Customer, nil
}

func RecordOf(t *engine.Txn, id string) (*Record, error) {
	var r Record
	if err := engine.GetJSON(t, tableCustomers, id, &r); err != nil {
		return nil, engine.NotFound(err, engine.CodeCustomerNotFound, "customer", id)
	}
	return &r, nil
}

// Live loads a customer that is not deleted (410 CUSTOMER_DELETED).
func Live(t *engine.Txn, id string) (*Record, error) {
	r, err := RecordOf(t, id)
	if err != nil {
		return nil, err
	}
	if r.IsDeleted {
		return nil, engine.Errorf(engine.CodeCustomerDeleted, "customer %s is deleted", id)
	}
	return r, nil
}

// ByUma finds the customer holding a UMA address: UMA_NOT_FOUND when
// none does.
func ByUma(t *engine.Txn, addr string) (*Customer, error) {
	id, err := t.Get(tableCustomerUma, addr)
	if errors.Is(err, engine.ErrNotFound) {
		return nil, engine.Errorf(engine.CodeUmaNotFound, "no customer holds UMA address %s", addr)
	}
	if err != nil {
		return nil, err
	}
	return Get(t, string(id))
}

// Transacting loads a customer that may move money now: it exists,
// is not deleted, and on an unregulated platform has accepted the provider's
// end-user terms (END_USER_TERMS_NOT_ACCEPTED otherwise).
//
// The customer it returns is shared and must not be changed.
func Transacting(t *engine.Txn, id string) (*Customer, error) {
	r, err := customersSlot.Of(t.Handle).cache.Get(t, tableCustomers, id)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeCustomerNotFound, "customer", id)
	}
	if r.IsDeleted {
		return nil, engine.Errorf(engine.CodeCustomerDeleted, "customer %s is deleted", id)
	}
	p, err := platform.Load(t)
	if err != nil {
		return nil, err
	}
	if !p.IsRegulatedFinancialInstitution && !r.AcceptedEndUserTerms() {
		return nil, engine.Errorf(engine.CodeEndUserTermsNotAccepted,
			"customer %s has not accepted the provider's end-user terms (agreementConsents type %s)", id, AgreementProviderEndUserTerms)
	}
	return &r.Customer, nil
}

// Sending loads a customer that may send money from its accounts
// now: a transacting customer (transactingCustomer) whose kycStatus or
// kybStatus is neither REJECTED nor HOLD (SENDER_NOT_ACCEPTED otherwise).
// Money coming in checks transactingCustomer only, so it still credits
// such a customer.
//
// The customer it returns is shared and must not be changed.
func Sending(t *engine.Txn, id string) (*Customer, error) {
	c, err := Transacting(t, id)
	if err != nil {
		return nil, err
	}
	if s := c.Status(); !s.MaySend() {
		field := "kycStatus"
		if c.CustomerType == CustomerBusiness {
			field = "kybStatus"
		}
		return nil, &engine.Error{Code: engine.CodeSenderNotAccepted, Message: "customer " + id + " cannot send money while its " + field + " is " + string(s),
			Details: map[string]any{"customerId": id, field: string(s)}}
	}
	return c, nil
}

// Service onboards customers and verifies them: records, KYC/KYB
// verifications and links, beneficial owners, contact verification, bulk
// import and the end-user terms.
type Service struct{ e *engine.Handle }

// NewService returns the Customers group of h.
func NewService(h *engine.Handle) Service { return Service{h} }

// Insert stores c as it is, with its UMA address's index entry: for
// fixtures that set customers up directly (the engine's tests).
func Insert(t *engine.Txn, c Customer) error {
	if err := engine.InsertJSON(t, tableCustomers, c.ID, c); err != nil {
		return err
	}
	if c.UmaAddress != "" {
		return t.Insert(tableCustomerUma, c.UmaAddress, []byte(c.ID))
	}
	return nil
}

package payments

import (
	"errors"
	"time"
)

// Customer tables: records by id, and the unique index from UMA address to
// customer id (also used to find the receiver of incoming UMA payments).
const (
	TableCustomers   = "customers"
	TableCustomerUma = "customer_uma"
)

// CustomerType is INDIVIDUAL or BUSINESS.
type CustomerType string

// Customer types.
const (
	CustomerIndividual CustomerType = "INDIVIDUAL"
	CustomerBusiness   CustomerType = "BUSINESS"
)

// KYCStatus is the verification status of a customer (kycStatus for
// individuals, kybStatus for businesses; the same enum).
type KYCStatus string

// Verification statuses.
const (
	KYCUnverified KYCStatus = "UNVERIFIED"
	KYCPending    KYCStatus = "PENDING"
	KYCApproved   KYCStatus = "APPROVED"
	KYCRejected   KYCStatus = "REJECTED"
	KYCHold       KYCStatus = "HOLD"
)

// AgreementProviderEndUserTerms is the agreement type an unregulated platform's
// customers must accept before customer-scoped money movement.
const AgreementProviderEndUserTerms = "PROVIDER_END_USER_TERMS"

// AgreementConsent records the acceptance of one agreement.
type AgreementConsent struct {
	Type             string    `json:"type"`
	TermsVersion     string    `json:"termsVersion"`
	AcceptedAt       time.Time `json:"acceptedAt"`
	IPAddress        string    `json:"ipAddress,omitempty"`
	AcceptanceMethod string    `json:"acceptanceMethod,omitempty"`
}

// Customer is a platform's customer, an individual or a business. The fields
// here are the ones every area relies on; the customers area adds the rest.
type Customer struct {
	ID                 string             `json:"id"`
	PlatformCustomerID string             `json:"platformCustomerId"`
	CustomerType       CustomerType       `json:"customerType"`
	UmaAddress         string             `json:"umaAddress"`
	Region             string             `json:"region,omitempty"`
	Currencies         []string           `json:"currencies,omitempty"`
	KYCStatus          KYCStatus          `json:"kycStatus,omitempty"`
	KYBStatus          KYCStatus          `json:"kybStatus,omitempty"`
	FullName           string             `json:"fullName,omitempty"`
	AgreementConsents  []AgreementConsent `json:"agreementConsents,omitempty"`
	IsDeleted          bool               `json:"isDeleted"`
	CreatedAt          time.Time          `json:"createdAt"`
	UpdatedAt          time.Time          `json:"updatedAt"`
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

// customer loads a customer: CUSTOMER_NOT_FOUND when absent.
func (t *txn) customer(id string) (*Customer, error) {
	var c Customer
	if err := getJSON(t, TableCustomers, id, &c); err != nil {
		return nil, notFound(err, CodeCustomerNotFound, "customer", id)
	}
	return &c, nil
}

// customerByUma finds the customer holding a UMA address: UMA_NOT_FOUND when
// none does.
func (t *txn) customerByUma(addr string) (*Customer, error) {
	id, err := t.Get(TableCustomerUma, addr)
	if errors.Is(err, ErrNotFound) {
		return nil, Errorf(CodeUmaNotFound, "no customer holds UMA address %s", addr)
	}
	if err != nil {
		return nil, err
	}
	return t.customer(string(id))
}

// transactingCustomer loads a customer that may move money now: it exists,
// is not deleted, and on an unregulated platform has accepted the provider's
// end-user terms (END_USER_TERMS_NOT_ACCEPTED otherwise).
func (t *txn) transactingCustomer(id string) (*Customer, error) {
	c, err := t.customer(id)
	if err != nil {
		return nil, err
	}
	if c.IsDeleted {
		return nil, Errorf(CodeCustomerDeleted, "customer %s is deleted", id)
	}
	p, err := t.platform()
	if err != nil {
		return nil, err
	}
	if !p.IsRegulatedFinancialInstitution && !c.AcceptedEndUserTerms() {
		return nil, Errorf(CodeEndUserTermsNotAccepted,
			"customer %s has not accepted the provider's end-user terms (agreementConsents type %s)", id, AgreementProviderEndUserTerms)
	}
	return c, nil
}

package sandbox

import (
	"context"
	"strings"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/customers"
)

// ContactCode is the one-time code of sandbox contact verification
// (no email or SMS is sent).
const ContactCode = "123456"

// suffixRule is what the last three characters of a name decide, per the
// reference's sandbox KYC table (001 pending, 002 rejected, 003 a document
// to redo). The rule of any other suffix is defaultRule.
type suffixRule struct {
	// atCreation is an individual's kycStatus at creation on a regulated or
	// paperwork-skip platform.
	atCreation payments.KYCStatus
	// final: the suffix resolves a customer without review (business on a
	// regulated or paperwork-skip platform even before validation).
	final payments.KYCStatus
	// owner is a beneficial owner's status when its business resolves.
	owner payments.KYCStatus
	// flagDocument: a complete first packet comes back RESOLVE_ERRORS with a
	// POOR_QUALITY_DOCUMENT error (suffix 003).
	flagDocument bool
}

// suffixRules is the one table of sandbox KYC suffixes.
var suffixRules = map[string]suffixRule{
	"001": {atCreation: payments.KYCPending, owner: payments.KYCPending},
	"002": {atCreation: payments.KYCRejected, final: payments.KYCRejected, owner: payments.KYCRejected},
	"003": {atCreation: payments.KYCUnverified, owner: payments.KYCApproved, flagDocument: true},
}

var defaultRule = suffixRule{atCreation: payments.KYCApproved, final: payments.KYCApproved, owner: payments.KYCApproved}

func ruleOf(name string) suffixRule {
	if len(name) >= 3 {
		if r, ok := suffixRules[name[len(name)-3:]]; ok {
			return r
		}
	}
	return defaultRule
}

// euRegions are the regions whose customers verify email and phone first.
var euRegions = map[string]bool{"AT": true, "BE": true, "BG": true, "HR": true, "CY": true, "CZ": true, "DK": true,
	"EE": true, "FI": true, "FR": true, "DE": true, "GR": true, "HU": true, "IE": true, "IT": true, "LV": true,
	"LT": true, "LU": true, "MT": true, "NL": true, "PL": true, "PT": true, "RO": true, "SK": true, "SI": true,
	"ES": true, "SE": true, "IS": true, "LI": true, "NO": true}

// KYC is the sandbox KYCProvider: the sandbox's suffix rules on
// individuals' fullName, businesses' businessInfo.registrationNumber and
// beneficial owners' personalInfo.lastName, for all three platform kinds.
//
// On an unregulated platform with skipVerificationPaperwork off, every
// customer starts UNVERIFIED and a submission is validated first: an
// incomplete packet is RESOLVE_ERRORS with one error per missing item; a
// complete one is decided by the suffix (002 REJECTED; 001 PENDING_MANUAL_REVIEW;
// 003 RESOLVE_ERRORS with POOR_QUALITY_DOCUMENT, until fixed; others
// APPROVED). A complete packet that fixes an earlier RESOLVE_ERRORS goes to
// PENDING_MANUAL_REVIEW with kycStatus PENDING (rule 5), except 002, which is
// REJECTED. On a regulated or paperwork-skip platform individuals are decided
// at creation (001 PENDING, 003 UNVERIFIED, 002 REJECTED, others APPROVED)
// and businesses with a final suffix resolve on their first submission even
// when incomplete. Customers in EU/EEA regions verify email and phone first.
type KYC struct{}

var _ payments.KYCProvider = KYC{}

func paperless(p *payments.PlatformConfig) bool {
	return p.IsRegulatedFinancialInstitution || p.SkipVerificationPaperwork
}

func steeringName(c *payments.Customer) string {
	if c.CustomerType == payments.CustomerBusiness {
		if c.BusinessInfo != nil {
			return c.BusinessInfo.RegistrationNumber
		}
		return ""
	}
	return c.FullName
}

// InitialStatus implements payments.KYCProvider.
func (KYC) InitialStatus(_ context.Context, c *payments.Customer, p *payments.PlatformConfig) (payments.KYCStatus, error) {
	if c.CustomerType == payments.CustomerBusiness || !paperless(p) {
		return payments.KYCUnverified, nil
	}
	return ruleOf(c.FullName).atCreation, nil
}

// Review implements payments.KYCProvider.
func (KYC) Review(_ context.Context, s *payments.KYCSubmission) (payments.KYCDecision, error) {
	rule := ruleOf(steeringName(s.Customer))
	business := s.Customer.CustomerType == payments.CustomerBusiness
	resolve := func(st payments.KYCStatus) payments.KYCDecision {
		d := payments.KYCDecision{Status: payments.VerificationStatus(st), CustomerStatus: st}
		if business {
			d.OwnerStatuses = map[string]payments.KYCStatus{}
			for _, o := range s.Owners {
				d.OwnerStatuses[o.ID] = ruleOf(o.PersonalInfo.LastName).owner
			}
		}
		return d
	}
	if business && paperless(s.Platform) && rule.final != "" {
		return resolve(rule.final), nil // resolved on its first submission, complete or not
	}
	if len(s.Problems) > 0 {
		return payments.KYCDecision{Status: payments.VerificationResolveErrors, Problems: s.Problems, CustomerStatus: s.Customer.Status()}, nil
	}
	switch {
	case rule.final == payments.KYCRejected:
		return resolve(payments.KYCRejected), nil
	case s.Resubmission:
		return payments.KYCDecision{Status: payments.VerificationPendingManualReview, CustomerStatus: payments.KYCPending}, nil
	case rule.flagDocument && !business:
		return payments.KYCDecision{Status: payments.VerificationResolveErrors, CustomerStatus: s.Customer.Status(),
			Problems: []customers.Problem{{Type: "POOR_QUALITY_DOCUMENT", AcceptedDocumentTypes: customers.IdentityDocuments,
				Reason: "the identity document is not readable; upload a better copy with PUT /documents/{documentId}"}}}, nil
	case rule.final == "":
		return payments.KYCDecision{Status: payments.VerificationPendingManualReview, CustomerStatus: payments.KYCPending}, nil
	}
	return resolve(rule.final), nil
}

// ContactChecks implements payments.KYCProvider: EU/EEA customers verify
// both their email and their phone.
func (KYC) ContactChecks(c *payments.Customer) (email, phone bool) {
	eu := euRegions[strings.ToUpper(c.Region)]
	return eu, eu
}

// ContactCode implements payments.KYCProvider with the fixed ContactCode.
func (KYC) ContactCode(string) string { return ContactCode }

// SCARequired implements payments.KYCProvider: EU/EEA customers.
func (KYC) SCARequired(c *payments.Customer) bool { return euRegions[strings.ToUpper(c.Region)] }

package customers

import "slices"

// Problem is one reason a verification packet is incomplete: a
// VerificationError of the reference without its resourceId, which the
// engine fills in.
type Problem struct {
	Type                  string   `json:"type"`
	Field                 string   `json:"field,omitempty"`
	AcceptedDocumentTypes []string `json:"acceptedDocumentTypes,omitempty"`
	Reason                string   `json:"reason"`
}

// Document groups of the reference's DocumentType.
var (
	IdentityDocuments      = []string{"PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID"}
	LegalPresenceDocuments = []string{"CERTIFICATE_OF_INCORPORATION", "ARTICLES_OF_INCORPORATION", "ARTICLES_OF_ASSOCIATION",
		"STATE_REGISTRY_EXCERPT", "GOOD_STANDING_CERTIFICATE", "INFORMATION_STATEMENT", "INCUMBENCY_CERTIFICATE", "BUSINESS_LICENSE"}
	DocumentTypes = []string{"PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID", "PROOF_OF_ADDRESS", "BANK_STATEMENT", "TAX_RETURN",
		"CERTIFICATE_OF_INCORPORATION", "ARTICLES_OF_INCORPORATION", "ARTICLES_OF_ASSOCIATION", "STATE_REGISTRY_EXCERPT",
		"GOOD_STANDING_CERTIFICATE", "INFORMATION_STATEMENT", "INCUMBENCY_CERTIFICATE", "BUSINESS_LICENSE", "SHAREHOLDER_REGISTER",
		"POWER_OF_ATTORNEY", "UTILITY_BILL", "ELECTRICITY_BILL", "RENT_OR_LEASE_AGREEMENT", "DIRECTOR_REGISTRY", "TRUST_AGREEMENT",
		"STATE_COMPANY_REGISTRY", "PARTNERSHIP_CONTROL_AGREEMENT", "PARTNERSHIP_AGREEMENT", "SELFIE", "OTHER"}
)

func missingField(field string) Problem {
	return Problem{Type: "MISSING_FIELD", Field: field, Reason: field + " is required for verification"}
}

func hasAny(have, want []string) bool {
	for _, w := range want {
		if slices.Contains(have, w) {
			return true
		}
	}
	return false
}

// IndividualProblems lists what an individual's packet lacks (spec 3.3 rule
// 4): full name, birth date, nationality, idType with identifier, address,
// and an identity document among docTypes (the types uploaded for them).
func IndividualProblems(p *Profile, hasIdentifier bool, docTypes []string) []Problem {
	var out []Problem
	for _, f := range []struct {
		name    string
		present bool
	}{
		{"fullName", p.FullName != ""}, {"birthDate", p.BirthDate != ""}, {"nationality", p.Nationality != ""},
		{"idType", p.IDType != ""}, {"identifier", hasIdentifier}, {"address", p.Address != nil},
	} {
		if !f.present {
			out = append(out, missingField(f.name))
		}
	}
	if !hasAny(docTypes, IdentityDocuments) {
		out = append(out, Problem{Type: "MISSING_IDENTITY_DOCUMENT", AcceptedDocumentTypes: IdentityDocuments,
			Reason: "an identity document (passport, driver's license or national ID) must be uploaded"})
	}
	return out
}

// BusinessProblems lists what a business packet lacks: the business
// information, its address, a legal-presence document, and at least one
// beneficial owner.
func BusinessProblems(p *Profile, docTypes []string, owners int) []Problem {
	var out []Problem
	b := p.BusinessInfo
	if b == nil {
		b = &BusinessInfo{}
	}
	for _, f := range []struct {
		name    string
		present bool
	}{
		{"businessInfo.legalName", b.LegalName != ""}, {"businessInfo.country", b.Country != ""},
		{"businessInfo.taxId", b.TaxID != ""}, {"businessInfo.incorporatedOn", b.IncorporatedOn != ""},
		{"businessInfo.registrationNumber", b.RegistrationNumber != ""}, {"address", p.Address != nil},
	} {
		if !f.present {
			out = append(out, missingField(f.name))
		}
	}
	if !hasAny(docTypes, LegalPresenceDocuments) {
		out = append(out, Problem{Type: "MISSING_LEGAL_PRESENCE_DOCUMENT", AcceptedDocumentTypes: LegalPresenceDocuments,
			Reason: "a document proving the business's legal presence must be uploaded"})
	}
	if owners == 0 {
		out = append(out, Problem{Type: "MISSING_BENEFICIAL_OWNER", Reason: "at least one beneficial owner must be added"})
	}
	return out
}

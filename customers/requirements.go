package customers

import "slices"

// Problem is one reason a verification packet is incomplete: a
// VerificationError of the reference without its resourceId, which
// SubmitVerification fills in. Type is MISSING_FIELD (with Field),
// MISSING_IDENTITY_DOCUMENT, MISSING_LEGAL_PRESENCE_DOCUMENT (with
// AcceptedDocumentTypes) or MISSING_BENEFICIAL_OWNER; a provider may
// return its own.
type Problem struct {
	Type                  string   `json:"type"`
	Field                 string   `json:"field,omitempty"`
	AcceptedDocumentTypes []string `json:"acceptedDocumentTypes,omitempty"`
	Reason                string   `json:"reason"`
}

// Document groups of the reference's DocumentType: the documents that
// identify a person, those that prove a business exists, and every type
// an upload may name.
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

// missingField is the problem of a member a packet lacks.
func missingField(field string) Problem {
	return Problem{Type: "MISSING_FIELD", Field: field, Reason: field + " is required for verification"}
}

// hasAny reports whether have holds any of want.
func hasAny(have, want []string) bool {
	for _, w := range want {
		if slices.Contains(have, w) {
			return true
		}
	}
	return false
}

// IndividualProblems lists what an individual's packet lacks: full name, birth date, nationality, idType with identifier, address,
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
// information (registrationNumber included, which profile validation
// leaves optional), its address, a legal-presence document among docTypes,
// and at least one beneficial owner (owners counts them). The owners' own
// documents are not required here; the provider may ask for them.
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

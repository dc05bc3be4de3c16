package customers

import (
	"slices"

	"github.com/paygrid/payments/validate"
)

// EndUserTerms is a version of the provider's end-user terms (reference
// EndUserTerms): the version a consent names and where its text is.
type EndUserTerms struct {
	Version string `json:"version"`
	URL     string `json:"url"`
}

// CurrentEndUserTerms is the version customers accept today (what GET
// /customers/end-user-terms answers, the source of truth for clients);
// EndUserTermsVersions lists every version a consent may name: the current
// one, the earlier dated one, and "V1", the version the reference documents
// in its examples, so clients written against it work.
var (
	CurrentEndUserTerms  = EndUserTerms{Version: "2025-10-13", URL: "https://terms.sandbox.uma.money/end-user-terms/2025-10-13"}
	EndUserTermsVersions = []string{"V1", "2024-06-01", "2025-10-13"}
)

// CurrentTerms returns the current end-user terms (GET
// /customers/end-user-terms). It reads no store and never fails.
func (cs Service) CurrentTerms() EndUserTerms { return CurrentEndUserTerms }

// checkConsents validates consent entries (at most one per type) and returns
// the field path of the first unknown terms version, if that is the only kind
// of problem worth a dedicated code.
func checkConsents(fe *validate.Errors, list []AgreementConsent, deprecated bool) (unknownVersion string) {
	seen := map[string]bool{}
	for i, c := range list {
		p := validate.Index("agreementConsents", i) + "."
		if deprecated {
			p = "endUserTermsConsent."
		} else if fe.Required(p+"type", c.Type) && fe.Enum(p+"type", c.Type, AgreementProviderEndUserTerms) {
			if seen[c.Type] {
				fe.Add(p+"type", nil, "agreementConsents holds at most one entry per type; %s is listed twice", c.Type)
			}
			seen[c.Type] = true
		}
		fe.Required(p+"termsVersion", c.TermsVersion)
		if c.AcceptedAt.IsZero() {
			fe.Missing(p + "acceptedAt")
		}
		if fe.Required(p+"ipAddress", c.IPAddress) {
			fe.MaxLen(p+"ipAddress", c.IPAddress, 45)
		}
		if fe.Required(p+"acceptanceMethod", c.AcceptanceMethod) {
			fe.Enum(p+"acceptanceMethod", c.AcceptanceMethod, "CHECKBOX", "CLICK_TO_ACCEPT")
		}
		if c.TermsVersion != "" && !slices.Contains(EndUserTermsVersions, c.TermsVersion) && unknownVersion == "" {
			unknownVersion = p + "termsVersion"
		}
	}
	return unknownVersion
}

// mergeConsent keeps one entry per type: the latest acceptance, so a
// replayed or reordered older consent never overwrites a newer one.
func mergeConsent(list []AgreementConsent, c AgreementConsent) []AgreementConsent {
	for i := range list {
		if list[i].Type == c.Type {
			if !c.AcceptedAt.Before(list[i].AcceptedAt) {
				list[i] = c
			}
			return list
		}
	}
	return append(list, c)
}

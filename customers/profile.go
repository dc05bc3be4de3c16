package customers

import (
	"encoding/json"
	"regexp"
	"time"

	"github.com/paygrid/payments/validate"
)

// The profile of a customer: its members, their enumerations and limits,
// and their validation. Customer and CustomerInput embed Profile; create
// and update merge the request onto the stored profile (Merge) and
// validate the result (ValidateIndividual, ValidateBusiness), so every
// invalid field is reported at once, whatever the request touched.

// Address is a postal address (reference Address).
type Address struct {
	Line1      string `json:"line1,omitempty"`
	Line2      string `json:"line2,omitempty"`
	City       string `json:"city,omitempty"`
	State      string `json:"state,omitempty"`
	PostalCode string `json:"postalCode,omitempty"`
	Country    string `json:"country,omitempty"`
}

// Profile is the patchable identity and due-diligence data of a customer.
// The top-level fields describe individuals; BusinessInfo describes a
// business. Every member is optional on the wire (omitempty), which is what
// Merge relies on.
type Profile struct {
	FullName                         string        `json:"fullName,omitempty"`
	BirthDate                        string        `json:"birthDate,omitempty"`
	Nationality                      string        `json:"nationality,omitempty"`
	Address                          *Address      `json:"address,omitempty"`
	IDType                           string        `json:"idType,omitempty"`
	CountryOfIssuance                string        `json:"countryOfIssuance,omitempty"`
	SourceOfFundsCategories          []string      `json:"sourceOfFundsCategories,omitempty"`
	SourceOfFundsOtherDescription    string        `json:"sourceOfFundsOtherDescription,omitempty"`
	SourceOfWealthCategories         []string      `json:"sourceOfWealthCategories,omitempty"`
	SourceOfWealthOtherDescription   string        `json:"sourceOfWealthOtherDescription,omitempty"`
	PurposeOfAccount                 string        `json:"purposeOfAccount,omitempty"`
	PurposeOfAccountOtherDescription string        `json:"purposeOfAccountOtherDescription,omitempty"`
	ExpectedMonthlyTransactionCount  string        `json:"expectedMonthlyTransactionCount,omitempty"`
	ExpectedMonthlyTransactionVolume string        `json:"expectedMonthlyTransactionVolume,omitempty"`
	AnnualIncomeRange                string        `json:"annualIncomeRange,omitempty"`
	NetWorthRange                    string        `json:"netWorthRange,omitempty"`
	PepStatus                        string        `json:"pepStatus,omitempty"`
	BusinessInfo                     *BusinessInfo `json:"businessInfo,omitempty"`
}

// BusinessInfo describes a business customer (reference BusinessInfo).
type BusinessInfo struct {
	LegalName                        string   `json:"legalName,omitempty"`
	DoingBusinessAs                  string   `json:"doingBusinessAs,omitempty"`
	Country                          string   `json:"country,omitempty"`
	RegistrationNumber               string   `json:"registrationNumber,omitempty"`
	IncorporatedOn                   string   `json:"incorporatedOn,omitempty"`
	EntityType                       string   `json:"entityType,omitempty"`
	TaxID                            string   `json:"taxId,omitempty"`
	CountriesOfOperation             []string `json:"countriesOfOperation,omitempty"`
	BusinessType                     string   `json:"businessType,omitempty"`
	PurposeOfAccount                 string   `json:"purposeOfAccount,omitempty"`
	PurposeOfAccountOtherDescription string   `json:"purposeOfAccountOtherDescription,omitempty"`
	SourceOfFunds                    string   `json:"sourceOfFunds,omitempty"`
	SourceOfFundsCategories          []string `json:"sourceOfFundsCategories,omitempty"`
	SourceOfFundsOtherDescription    string   `json:"sourceOfFundsOtherDescription,omitempty"`
	ExpectedMonthlyTransactionCount  string   `json:"expectedMonthlyTransactionCount,omitempty"`
	ExpectedMonthlyTransactionVolume string   `json:"expectedMonthlyTransactionVolume,omitempty"`
	ExpectedRecipientJurisdictions   []string `json:"expectedRecipientJurisdictions,omitempty"`
	ExpectedCounterpartyCountries    []string `json:"expectedCounterpartyCountries,omitempty"`
	NaicsCode                        string   `json:"naicsCode,omitempty"`
	PrimaryContactFirstName          string   `json:"primaryContactFirstName,omitempty"`
	PrimaryContactLastName           string   `json:"primaryContactLastName,omitempty"`
}

// EmptyLists reports the list members present but empty in a request
// (each needs at least one item); Merge cannot see them, since an empty
// list reads as absent.
func (p *Profile) EmptyLists(fe *validate.Errors) {
	lists := map[string][]string{"sourceOfFundsCategories": p.SourceOfFundsCategories, "sourceOfWealthCategories": p.SourceOfWealthCategories}
	if b := p.BusinessInfo; b != nil {
		lists["businessInfo.sourceOfFundsCategories"] = b.SourceOfFundsCategories
		lists["businessInfo.countriesOfOperation"] = b.CountriesOfOperation
	}
	for _, f := range []string{"sourceOfFundsCategories", "sourceOfWealthCategories", "businessInfo.sourceOfFundsCategories", "businessInfo.countriesOfOperation"} {
		if l, ok := lists[f]; ok && l != nil && len(l) == 0 {
			fe.Add(f, nil, "%s must list at least one item when present", f)
		}
	}
}

// Merge applies the members set in patch onto p: a member absent from the
// patch (zero) keeps p's value; nested objects merge member by member. It
// goes through JSON so that the omitempty tags alone decide what a patch
// sets: a member cannot be cleared by sending its zero value.
func (p *Profile) Merge(patch Profile) {
	b, _ := json.Marshal(patch) // plain data: cannot fail
	_ = json.Unmarshal(b, p)
}

// Enumerations of the reference: the values the profile's enum members
// accept (validation names them in its field errors).
var (
	IDTypes              = []string{"SSN", "ITIN", "EIN", "NON_US_TAX_ID"}
	SourceOfFunds        = []string{"SALARY", "SELF_EMPLOYMENT_INCOME", "INVESTMENT_INCOME", "PENSION", "RENTAL_INCOME", "GIFT", "INHERITANCE", "LOAN", "SAVINGS", "SALE_OF_ASSETS", "OTHER"}
	SourceOfWealth       = []string{"SALARY", "BUSINESS_INCOME", "INVESTMENTS", "INHERITANCE", "PROPERTY_SALE", "GIFT", "RETIREMENT", "SAVINGS", "OTHER"}
	BusinessSourceOfFund = []string{"OPERATING_REVENUE", "INVESTMENT_INCOME", "LOANS", "VENTURE_CAPITAL", "PERSONAL_SAVINGS", "DONATIONS", "OTHER"}
	PurposesOfAccount    = []string{"CONTRACTOR_PAYOUTS", "CREATOR_PAYOUTS", "EMPLOYEE_PAYOUTS", "MARKETPLACE_SELLER_PAYOUTS", "SUPPLIER_PAYMENTS", "CROSS_BORDER_B2B", "AR_AUTOMATION", "AP_AUTOMATION", "EMBEDDED_PAYMENTS", "PLATFORM_FEE_COLLECTION", "P2P_TRANSFERS", "CHARITABLE_DONATIONS", "OTHER"}
	TransactionCounts    = []string{"COUNT_UNDER_10", "COUNT_10_TO_100", "COUNT_100_TO_500", "COUNT_500_TO_1000", "COUNT_OVER_1000"}
	TransactionVolumes   = []string{"VOLUME_UNDER_10K", "VOLUME_10K_TO_100K", "VOLUME_100K_TO_1M", "VOLUME_1M_TO_10M", "VOLUME_OVER_10M"}
	IncomeRanges         = []string{"UNDER_50K", "RANGE_50K_100K", "RANGE_100K_250K", "RANGE_250K_1M", "OVER_1M"}
	NetWorthRanges       = []string{"UNDER_100K", "RANGE_100K_500K", "RANGE_500K_1M", "RANGE_1M_5M", "RANGE_5M_25M", "OVER_25M"}
	PepStatuses          = []string{"NONE", "DOMESTIC", "FOREIGN", "HIO", "FAMILY_OR_ASSOCIATE"}
	EntityTypes          = []string{"SOLE_PROPRIETORSHIP", "PARTNERSHIP", "LLC", "CORPORATION", "S_CORPORATION", "NON_PROFIT", "PUBLICLY_LISTED_COMPANY", "TRUST", "PRIVATE_FOUNDATION", "CHARITY", "OTHER"}
	BusinessTypes        = []string{"AGRICULTURE_FORESTRY_FISHING_AND_HUNTING", "MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION", "UTILITIES", "CONSTRUCTION", "MANUFACTURING", "WHOLESALE_TRADE", "RETAIL_TRADE", "TRANSPORTATION_AND_WAREHOUSING", "INFORMATION", "FINANCE_AND_INSURANCE", "REAL_ESTATE_AND_RENTAL_AND_LEASING", "PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES", "MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES", "ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES", "EDUCATIONAL_SERVICES", "HEALTH_CARE_AND_SOCIAL_ASSISTANCE", "ARTS_ENTERTAINMENT_AND_RECREATION", "ACCOMMODATION_AND_FOOD_SERVICES", "OTHER_SERVICES", "PUBLIC_ADMINISTRATION"}
)

// Limits on a profile's members, in characters.
const (
	MaxFullName    = 250
	MaxEmail       = 255
	MaxIdentifier  = 100
	MaxDescription = 500
	// MaxAddressLine caps every member of an address; the reference sets no
	// maxLength there, so this is the documented cap (README).
	MaxAddressLine = 255
)

// Patterns of the US tax identifiers and of NAICS codes.
var (
	reSSN   = regexp.MustCompile(`^\d{3}-\d{2}-\d{4}$`)
	reITIN  = regexp.MustCompile(`^9\d{2}-\d{2}-\d{4}$`)
	reNaics = regexp.MustCompile(`^\d{2,6}$`)
)

// ValidateAddress checks an address at path: line1, postalCode and country
// are required, the country must be ISO 3166-1 alpha-2.
func ValidateAddress(fe *validate.Errors, path string, a *Address) {
	if a == nil {
		return
	}
	fe.Required(path+".line1", a.Line1)
	fe.Required(path+".postalCode", a.PostalCode)
	for _, m := range []struct{ name, v string }{{"line1", a.Line1}, {"line2", a.Line2}, {"city", a.City}, {"state", a.State}, {"postalCode", a.PostalCode}} {
		fe.MaxLen(path+"."+m.name, m.v, MaxAddressLine)
	}
	if fe.Required(path+".country", a.Country) {
		fe.Country(path+".country", a.Country)
	}
}

// ValidateIdentifier checks an individual's tax identifier: only SSN
// (###-##-####) and ITIN (9##-##-####) onboard a US account holder, the
// identifier needs its idType, and countryOfIssuance can only be US.
func ValidateIdentifier(fe *validate.Errors, prefix, idType, identifier, countryOfIssuance string) {
	if fe.Enum(prefix+"idType", idType, IDTypes...) && idType != "" && idType != "SSN" && idType != "ITIN" {
		fe.Add(prefix+"idType", &validate.Constraint{Enum: []string{"SSN", "ITIN"}}, "%sidType %s cannot onboard an individual; only SSN and ITIN are accepted", prefix, idType)
	}
	if identifier != "" && fe.MaxLen(prefix+"identifier", identifier, MaxIdentifier) {
		switch idType {
		case "":
			fe.Add(prefix+"idType", nil, "%sidType is required with an identifier", prefix)
		case "SSN":
			fe.Match(prefix+"identifier", identifier, reSSN, "an SSN in the format ###-##-####")
		case "ITIN":
			fe.Match(prefix+"identifier", identifier, reITIN, "an ITIN in the format 9##-##-####")
		}
	}
	if countryOfIssuance != "" && countryOfIssuance != "US" {
		fe.Add(prefix+"countryOfIssuance", &validate.Constraint{Enum: []string{"US"}}, "%scountryOfIssuance must be US", prefix)
	}
}

// ValidateBirthDate checks a YYYY-MM-DD date that is not after now.
func ValidateBirthDate(fe *validate.Errors, field, v string, now time.Time) {
	if fe.Date(field, v) && v != "" {
		if d, _ := time.Parse(time.DateOnly, v); d.After(now) {
			fe.Add(field, nil, "%s must not be in the future", field)
		}
	}
}

// categories checks an optional category list (at least one item when
// present, each from allowed) and its OTHER description: required exactly
// when OTHER is chosen.
func categories(fe *validate.Errors, field string, list []string, allowed []string, descField, desc string) {
	other := false
	for i, c := range list {
		fe.Enum(validate.Index(field, i), c, allowed...)
		other = other || c == "OTHER"
	}
	otherDescription(fe, other, field, descField, desc)
}

// otherDescription enforces the reference's pairing of an OTHER choice
// with its free-text description: required with OTHER, refused without it.
func otherDescription(fe *validate.Errors, other bool, field, descField, desc string) {
	switch {
	case other && desc == "":
		fe.Add(descField, nil, "%s is required when %s is OTHER", descField, field)
	case !other && desc != "":
		fe.Add(descField, nil, "%s is allowed only when %s is OTHER", descField, field)
	default:
		fe.MaxLen(descField, desc, MaxDescription)
	}
}

// countryList checks that every item of an optional list is an ISO
// 3166-1 alpha-2 country code.
func countryList(fe *validate.Errors, field string, list []string) {
	for i, c := range list {
		fe.Country(validate.Index(field, i), c)
	}
}

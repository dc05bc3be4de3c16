package customers

import (
	"time"

	"github.com/paygrid/payments/validate"
)

// ValidateIndividual checks the profile of an individual, recording every
// problem in fe (nothing stops at the first). identifier is the write-only
// tax identifier (never part of Profile); now bounds the birth date.
// Members are optional here: what verification needs is
// IndividualProblems' concern, so a customer may be created with little.
func (p *Profile) ValidateIndividual(fe *validate.Errors, identifier string, now time.Time) {
	fe.MaxLen("fullName", p.FullName, MaxFullName)
	ValidateBirthDate(fe, "birthDate", p.BirthDate, now)
	fe.Country("nationality", p.Nationality)
	ValidateAddress(fe, "address", p.Address)
	ValidateIdentifier(fe, "", p.IDType, identifier, p.CountryOfIssuance)
	categories(fe, "sourceOfFundsCategories", p.SourceOfFundsCategories, SourceOfFunds, "sourceOfFundsOtherDescription", p.SourceOfFundsOtherDescription)
	categories(fe, "sourceOfWealthCategories", p.SourceOfWealthCategories, SourceOfWealth, "sourceOfWealthOtherDescription", p.SourceOfWealthOtherDescription)
	fe.Enum("purposeOfAccount", p.PurposeOfAccount, PurposesOfAccount...)
	otherDescription(fe, p.PurposeOfAccount == "OTHER", "purposeOfAccount", "purposeOfAccountOtherDescription", p.PurposeOfAccountOtherDescription)
	fe.Enum("expectedMonthlyTransactionCount", p.ExpectedMonthlyTransactionCount, TransactionCounts...)
	fe.Enum("expectedMonthlyTransactionVolume", p.ExpectedMonthlyTransactionVolume, TransactionVolumes...)
	fe.Enum("annualIncomeRange", p.AnnualIncomeRange, IncomeRanges...)
	fe.Enum("netWorthRange", p.NetWorthRange, NetWorthRanges...)
	fe.Enum("pepStatus", p.PepStatus, PepStatuses...)
	if p.BusinessInfo != nil {
		fe.Add("businessInfo", nil, "businessInfo is only for BUSINESS customers")
	}
}

// individualOnly lists the profile members a business must not carry.
func (p *Profile) individualOnly() map[string]bool {
	return map[string]bool{
		"fullName": p.FullName != "", "birthDate": p.BirthDate != "", "nationality": p.Nationality != "",
		"idType": p.IDType != "", "countryOfIssuance": p.CountryOfIssuance != "",
		"sourceOfFundsCategories": p.SourceOfFundsCategories != nil, "sourceOfWealthCategories": p.SourceOfWealthCategories != nil,
		"purposeOfAccount": p.PurposeOfAccount != "", "annualIncomeRange": p.AnnualIncomeRange != "",
		"netWorthRange": p.NetWorthRange != "", "pepStatus": p.PepStatus != "",
	}
}

// ValidateBusiness checks the profile of a business: businessInfo with
// legalName, country, taxId and incorporatedOn is required, and individual
// members are refused, so a business's record never carries data that
// belongs to a person (its owners carry that).
func (p *Profile) ValidateBusiness(fe *validate.Errors, now time.Time) {
	for _, f := range []string{"fullName", "birthDate", "nationality", "idType", "countryOfIssuance", "sourceOfFundsCategories",
		"sourceOfWealthCategories", "purposeOfAccount", "annualIncomeRange", "netWorthRange", "pepStatus"} {
		if p.individualOnly()[f] {
			fe.Add(f, nil, "%s is only for INDIVIDUAL customers", f)
		}
	}
	ValidateAddress(fe, "address", p.Address)
	b := p.BusinessInfo
	if b == nil {
		fe.Missing("businessInfo")
		return
	}
	const pre = "businessInfo."
	if fe.Required(pre+"legalName", b.LegalName) {
		fe.MaxLen(pre+"legalName", b.LegalName, MaxFullName)
	}
	if fe.Required(pre+"country", b.Country) {
		fe.Country(pre+"country", b.Country)
	}
	fe.Required(pre+"taxId", b.TaxID)
	if fe.Required(pre+"incorporatedOn", b.IncorporatedOn) {
		ValidateBirthDate(fe, pre+"incorporatedOn", b.IncorporatedOn, now)
	}
	fe.MaxLen(pre+"registrationNumber", b.RegistrationNumber, MaxIdentifier)
	fe.Enum(pre+"entityType", b.EntityType, EntityTypes...)
	fe.Enum(pre+"businessType", b.BusinessType, BusinessTypes...)
	fe.Enum(pre+"purposeOfAccount", b.PurposeOfAccount, PurposesOfAccount...)
	otherDescription(fe, b.PurposeOfAccount == "OTHER", pre+"purposeOfAccount", pre+"purposeOfAccountOtherDescription", b.PurposeOfAccountOtherDescription)
	categories(fe, pre+"sourceOfFundsCategories", b.SourceOfFundsCategories, BusinessSourceOfFund, pre+"sourceOfFundsOtherDescription", b.SourceOfFundsOtherDescription)
	fe.Enum(pre+"expectedMonthlyTransactionCount", b.ExpectedMonthlyTransactionCount, TransactionCounts...)
	fe.Enum(pre+"expectedMonthlyTransactionVolume", b.ExpectedMonthlyTransactionVolume, TransactionVolumes...)
	fe.Match(pre+"naicsCode", b.NaicsCode, reNaics, "2 to 6 digits")
	fe.MaxLen(pre+"primaryContactFirstName", b.PrimaryContactFirstName, MaxFullName)
	fe.MaxLen(pre+"primaryContactLastName", b.PrimaryContactLastName, MaxFullName)
	countryList(fe, pre+"countriesOfOperation", b.CountriesOfOperation)
	countryList(fe, pre+"expectedRecipientJurisdictions", b.ExpectedRecipientJurisdictions)
	countryList(fe, pre+"expectedCounterpartyCountries", b.ExpectedCounterpartyCountries)
}

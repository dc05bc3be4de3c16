package customers_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/validate"
	"github.com/stretchr/testify/assert"
)

func fields(fe validate.Errors) []string {
	var out []string
	for _, f := range fe {
		out = append(out, f.Field)
	}
	return out
}

func TestProfile_MergeKeepsWhatThePatchOmits(t *testing.T) {
	p := customers.Profile{FullName: "Ann", Address: &customers.Address{Line1: "1 Main", PostalCode: "1", Country: "US"}}
	p.Merge(customers.Profile{Nationality: "US", Address: &customers.Address{City: "Austin"}})
	assert.Equal(t, "Ann", p.FullName)
	assert.Equal(t, "US", p.Nationality)
	assert.Equal(t, customers.Address{Line1: "1 Main", City: "Austin", PostalCode: "1", Country: "US"}, *p.Address)
}

func TestValidateIdentifier(t *testing.T) {
	for _, tc := range []struct {
		idType, identifier, country string
		want                        []string
	}{
		{"SSN", "123-45-6789", "", nil},
		{"ITIN", "912-70-1234", "US", nil},
		{"SSN", "123456789", "", []string{"identifier"}},
		{"ITIN", "812-70-1234", "", []string{"identifier"}},
		{"EIN", "12-3456789", "", []string{"idType"}},
		{"", "123-45-6789", "", []string{"idType"}},
		{"SSN", "123-45-6789", "CA", []string{"countryOfIssuance"}},
	} {
		var fe validate.Errors
		customers.ValidateIdentifier(&fe, "", tc.idType, tc.identifier, tc.country)
		assert.Equal(t, tc.want, fields(fe), "%+v", tc)
	}
}

func TestRequirements(t *testing.T) {
	probs := customers.IndividualProblems(&customers.Profile{FullName: "Ann"}, false, []string{"PROOF_OF_ADDRESS"})
	var got []string
	for _, p := range probs {
		got = append(got, p.Type+":"+p.Field)
	}
	assert.Equal(t, []string{"MISSING_FIELD:birthDate", "MISSING_FIELD:nationality", "MISSING_FIELD:idType",
		"MISSING_FIELD:identifier", "MISSING_FIELD:address", "MISSING_IDENTITY_DOCUMENT:"}, got)
	full := customers.Profile{BusinessInfo: &customers.BusinessInfo{LegalName: "A", Country: "US", TaxID: "1", IncorporatedOn: "2001-01-01", RegistrationNumber: "R"},
		Address: &customers.Address{Line1: "x", PostalCode: "1", Country: "US"}}
	assert.Empty(t, customers.BusinessProblems(&full, []string{"BUSINESS_LICENSE"}, 1))
	var fe validate.Errors
	full.ValidateBusiness(&fe, time.Now())
	assert.Empty(t, fe)
}

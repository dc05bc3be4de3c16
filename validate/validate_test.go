package validate_test

import (
	"testing"

	"github.com/paygrid/payments/validate"
	"github.com/stretchr/testify/assert"
)

func TestErrors_CollectsEveryField(t *testing.T) {
	var errs validate.Errors
	errs.Required("fullName", "")
	errs.MaxLen("email", string(make([]byte, 256)), 255)
	errs.Enum("idType", "PASSPORT", "SSN", "ITIN")
	errs.Phone("phoneNumber", "555-0100")
	errs.Date("birthDate", "1990-02-30")
	errs.Country("nationality", "XX")
	errs.Email("email2", "Jane <jane@example.com>")
	assert.Len(t, errs, 7)
	for _, f := range []string{"fullName", "email", "idType", "phoneNumber", "birthDate", "nationality", "email2"} {
		assert.True(t, errs.Has(f), f)
	}
	assert.Equal(t, []string{"SSN", "ITIN"}, errs[2].Constraint.Enum)
	assert.Equal(t, 255, *errs[1].Constraint.MaxLength)
	assert.Error(t, errs.Err())
}

func TestErrors_AcceptsValidValues(t *testing.T) {
	var errs validate.Errors
	errs.Required("a", "x")
	errs.Enum("b", "SSN", "SSN", "ITIN")
	errs.Enum("c", "", "SSN")
	errs.Phone("d", "+14155550123")
	errs.Date("e", "1990-02-28")
	errs.Country("f", "US")
	errs.Country("g", "ZW")
	errs.Email("h", "jane.doe+x@example.co.uk")
	assert.NoError(t, errs.Err())
}

func TestIsCountry(t *testing.T) {
	assert.True(t, validate.IsCountry("DE"))
	assert.False(t, validate.IsCountry("DD"))
	assert.False(t, validate.IsCountry("SD "))
	assert.False(t, validate.IsCountry("DA")) // spans "AD AE" boundary in the table
}

func TestIsEmail(t *testing.T) {
	for _, bad := range []string{"a@b", "a@[127.0.0.1]", "Jane <a@b.com>", "a@.com", "a@b..com", "plain"} {
		assert.False(t, validate.IsEmail(bad), bad)
	}
	assert.True(t, validate.IsEmail("a@b.co"))
}

func TestMerge_PrefixesFields(t *testing.T) {
	var inner validate.Errors
	inner.Required("postalCode", "")
	var outer validate.Errors
	outer.Merge("address", inner)
	assert.True(t, outer.Has("address.postalCode"))
}

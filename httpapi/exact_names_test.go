package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
)

// TestExactMemberNames: a member name matches a field only as the reference
// spells it. A name with its case changed is an unknown member, ignored as
// every unknown member is, never encoding/json's case-insensitive match: a
// quote that sends both spellings pays the exact one, and one that sends
// only the changed spelling has no amount at all. The same holds for every
// body the API decodes, nested members included.
func TestExactMemberNames(t *testing.T) {
	s := moneyServer(t)
	_, acct := s.funded(100000)
	custID, _ := s.funded(0)
	dest := s.eurAccount(custID, "DE89370400440532013000")
	quote := func(members string) response {
		return s.do("POST", "/quotes", fmt.Sprintf(`{"source":{"sourceType":"ACCOUNT","accountId":%q},`+
			`"destination":{"destinationType":"ACCOUNT","accountId":%q},"lockedCurrencySide":"SENDING",%s}`, acct, dest, members))
	}
	for _, members := range []string{
		`"lockedCurrencyAmount":5000,"LOCKEDCURRENCYAMOUNT":100000`,
		`"LOCKEDCURRENCYAMOUNT":100000,"lockedCurrencyAmount":5000`,
		`"lockedcurrencyamount":100000,"lockedCurrencyAmount":5000,"LockedCurrencyAmount":100000`,
		`"lockedCurrency\u0041mount":5000,"lockedCurrency\u0061mount":100000`,
	} {
		q := quote(members)
		require.Equal(t, 201, q.Status, "%s: %s", members, q.Raw)
		assert.EqualValues(t, 5000, q.Body["totalSendingAmount"], members)
	}
	requireError(t, quote(`"LOCKEDCURRENCYAMOUNT":100000`), 400, payments.CodeInvalidInput, "lockedCurrencyAmount")
	q := s.do("POST", "/quotes", fmt.Sprintf(`{"source":{"sourceType":"ACCOUNT","accountId":%q,"ACCOUNTID":"InternalAccount:nope"},`+
		`"destination":{"destinationType":"ACCOUNT","accountId":%q},"lockedCurrencySide":"SENDING","lockedCurrencyAmount":5000}`, acct, dest))
	require.Equal(t, 201, q.Status, "a nested member too: %s", q.Raw)

	// A customer: top-level and nested members.
	c := s.do("POST", "/customers", individual(set("FULLNAME", "Mallory"), set("fullname", "Mallory"),
		set("address", map[string]any{"line1": "1 Main St", "LINE1": "2 Evil Rd", "city": "Austin", "state": "TX", "postalCode": "78701", "country": "US"})))
	require.Equal(t, 201, c.Status, "%s", c.Raw)
	assert.Equal(t, "Jane Doe", c.Body["fullName"])
	assert.Equal(t, "1 Main St", c.Body["address"].(map[string]any)["line1"])
	requireError(t, s.do("POST", "/customers", individual(func(b map[string]any) { b["CustomerType"] = b["customerType"]; delete(b, "customerType") })),
		400, payments.CodeInvalidInput, "customerType")

	// An update: the changed spelling changes nothing, and a wrong type
	// under it is not this field's error.
	id := c.Body["id"].(string)
	p := s.do("PATCH", "/customers/"+id, `{"customerType":"INDIVIDUAL","email":"jane@example.org","EMAIL":"mallory@example.com","FullName":7}`)
	require.Equal(t, 200, p.Status, "%s", p.Raw)
	assert.Equal(t, "jane@example.org", p.Body["email"])
	assert.Equal(t, "Jane Doe", p.Body["fullName"])
}

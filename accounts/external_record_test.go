package accounts_test

import (
	"encoding/json"
	"testing"

	"github.com/paygrid/payments/accounts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The account type an external record caches is derived, never stored:
// stored records keep the format they had before the cache was exported.
func TestExternalRecord_TypeIsNotStored(t *testing.T) {
	b, err := json.Marshal(accounts.ExternalRecord{Type: "US_ACCOUNT"})
	require.NoError(t, err)
	assert.NotContains(t, string(b), "US_ACCOUNT")
}

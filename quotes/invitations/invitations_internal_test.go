package invitations

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInvitations_FingerprintsAsBefore: the idempotency records of
// invitations written before their operations were declared (which
// fingerprinted the request, and a claim's [code, inviteeUma]) still match
// the same requests.
func TestInvitations_FingerprintsAsBefore(t *testing.T) {
	encode := func(v any) string {
		t.Helper()
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return string(b)
	}
	amount := int64(5)
	req := Request{InviterUma: "$ann@example.com", FirstName: "Jane", AmountToSend: &amount}
	c := invitationCreation{req, time.Unix(0, 0)}
	assert.Equal(t, encode(req), encode(createInvitation.Fingerprint(&c)))
	assert.Equal(t, `["abc","$bob@other.example"]`, encode(claimInvitation.Fingerprint(&invitationClaim{"abc", "$bob@other.example"})))
	assert.Nil(t, cancelInvitation.Fingerprint, "Cancel's one argument, its code, is fingerprinted as before")
}

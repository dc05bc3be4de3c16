package payments_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
)

// A brand renames exactly the wire names that carry the neutral word, both
// ways, and leaves the other SERVICE_ words alone.
func TestBrand_Translates(t *testing.T) {
	b, err := payments.NewBrand("Acme")
	require.NoError(t, err)
	assert.Equal(t, "Acme", b.Name())
	assert.Equal(t, "Acme-Wallet-Signature", b.WalletSignatureHeader())
	assert.Equal(t, "X-Acme-Signature", b.WebhookSignatureHeader())

	neutral := `{"code":"STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED","message":"send the Service-Wallet-Signature header",` +
		`"a":"SERVICE_SWITCH_ERROR","b":"CLOSED_BY_SERVICE","c":"SERVICE_INTERNAL_ACCOUNT","d":"STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE",` +
		`"serviceApiMultiplier":1,"serviceApiFixedFee":2,"serviceApiVariableFeeRate":0.1,"serviceApiVariableFeeAmount":3,` +
		`"serviceOperationsStatus":"ENABLED","h":"X-Service-Signature",` +
		`"kept":["SERVICE_UNAVAILABLE","SERVICE_CHARGES","GOODS_OR_SERVICES","serviceFees","a Service-managed account"]}`
	branded := `{"code":"STABLECOIN_ACME_OPERATIONS_NOT_ENABLED","message":"send the Acme-Wallet-Signature header",` +
		`"a":"ACME_SWITCH_ERROR","b":"CLOSED_BY_ACME","c":"ACME_INTERNAL_ACCOUNT","d":"STABLECOIN_ACME_ENABLEMENT_NOT_REQUESTABLE",` +
		`"acmeApiMultiplier":1,"acmeApiFixedFee":2,"acmeApiVariableFeeRate":0.1,"acmeApiVariableFeeAmount":3,` +
		`"acmeOperationsStatus":"ENABLED","h":"X-Acme-Signature",` +
		`"kept":["SERVICE_UNAVAILABLE","SERVICE_CHARGES","GOODS_OR_SERVICES","serviceFees","a Service-managed account"]}`
	assert.Equal(t, branded, string(b.Outgoing([]byte(neutral))))
	assert.Equal(t, neutral, string(b.Incoming([]byte(branded))))
	assert.Equal(t, "serviceOperationsStatus=ENABLED&type=SERVICE_INTERNAL_ACCOUNT",
		b.IncomingString("acmeOperationsStatus=ENABLED&type=ACME_INTERNAL_ACCOUNT"))

	for name, want := range map[string]string{"ACME": "Acme", "acme": "Acme", "PayCo": "PayCo", "pay2": "Pay2"} {
		b, err := payments.NewBrand(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, b.Name())
	}
	b, err = payments.NewBrand("PayCo")
	require.NoError(t, err)
	assert.Equal(t, `{"payCoApiFixedFee":1,"x":"PAYCO_SWITCH_ERROR"}`, string(b.Outgoing([]byte(`{"serviceApiFixedFee":1,"x":"SERVICE_SWITCH_ERROR"}`))))
	for _, bad := range []string{"Ac me", "Acme-Co", "1Acme", "Ácme", "A23456789012345678901234567890123"} {
		_, err := payments.NewBrand(bad)
		assert.Error(t, err, bad)
	}
}

// The default brand ("", "Service" in any case) is a nil *Brand: the
// default names, its input returned as it is, no allocation.
func TestBrand_DefaultIsFree(t *testing.T) {
	for _, name := range []string{"", "Service", "SERVICE", "service"} {
		b, err := payments.NewBrand(name)
		require.NoError(t, err)
		require.Nil(t, b, name)
	}
	var b *payments.Brand
	assert.Equal(t, payments.DefaultBrand, b.Name())
	assert.Equal(t, "Service-Wallet-Signature", b.WalletSignatureHeader())
	assert.Equal(t, "X-Service-Signature", b.WebhookSignatureHeader())
	body := []byte(`{"serviceApiMultiplier":1,"code":"SERVICE_SWITCH_ERROR"}`)
	allocs := testing.AllocsPerRun(100, func() {
		_ = b.Outgoing(body)
		_ = b.Incoming(body)
		_ = b.IncomingString("serviceOperationsStatus=ENABLED")
	})
	assert.Zero(t, allocs)
	assert.Same(t, &body[0], &b.Outgoing(body)[0])

	acme, err := payments.NewBrand("Acme")
	require.NoError(t, err)
	plain := []byte(`{"id":"Quote:1","status":"PENDING"}`)
	allocs = testing.AllocsPerRun(100, func() { _ = acme.Outgoing(plain); _ = acme.Incoming(plain) })
	assert.Zero(t, allocs, "a body without the brand's names is not copied")
}

package rates_test

import (
	"testing"

	"github.com/paygrid/payments/quotes/rates"
	"github.com/stretchr/testify/assert"
)

func TestNetwork(t *testing.T) {
	f, ok := rates.Network("SOLANA", "USDC")
	assert.True(t, ok)
	assert.Equal(t, rates.NetworkFee{Amount: 5000, Asset: "SOL"}, f)
	_, ok = rates.Network("TRON", "USDC")
	assert.False(t, ok, "TRON carries USDT only")
	_, ok = rates.Network("DOGE", "USDC")
	assert.False(t, ok)
	assert.Contains(t, rates.Networks(), "LIGHTNING")
	assert.IsNonDecreasing(t, rates.Networks())
}

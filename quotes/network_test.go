package quotes_test

import (
	"testing"

	"github.com/paygrid/payments/quotes"
	"github.com/stretchr/testify/assert"
)

func TestNetwork(t *testing.T) {
	f, ok := quotes.Network("SOLANA", "USDC")
	assert.True(t, ok)
	assert.Equal(t, quotes.NetworkFee{Amount: 5000, Asset: "SOL"}, f)
	_, ok = quotes.Network("TRON", "USDC")
	assert.False(t, ok, "TRON carries USDT only")
	_, ok = quotes.Network("DOGE", "USDC")
	assert.False(t, ok)
	assert.Contains(t, quotes.Networks(), "LIGHTNING")
	assert.IsNonDecreasing(t, quotes.Networks())
}

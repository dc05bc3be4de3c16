package quotes

import (
	"context"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/quotes/rates"
)

// The rate source and its cache, the networks' fees and the crypto
// withdrawal estimate live in package quotes/rates; these are their names
// as this package has always spelled them (the root re-exports them from
// here).

// RateSource supplies exchange rates (rates.RateSource).
type RateSource = rates.RateSource

// RateCacheTTL is how long a rate is reused before the source is asked
// again (rates.RateCacheTTL).
const RateCacheTTL = rates.RateCacheTTL

// Rate returns the (cached) rate of a pair and when it was fetched
// (rates.Rate). It may call the network: never inside a transaction.
func Rate(e *engine.Handle, ctx context.Context, from, to string) (money.Rate, time.Time, error) {
	return rates.Rate(e, ctx, from, to)
}

// NetworkFee is the on-chain cost of one withdrawal on a crypto network
// (rates.NetworkFee).
type NetworkFee = rates.NetworkFee

// Network returns the fee of a withdrawal of currency on network, and
// whether the network carries it (rates.Network).
func Network(network, currency string) (NetworkFee, bool) { return rates.Network(network, currency) }

// Networks lists the crypto networks, sorted (rates.Networks).
func Networks() []string { return rates.Networks() }

// Crypto is the crypto-withdrawal area (rates.Crypto). Reach it as
// eng.Crypto (payments.Crypto).
type Crypto = rates.Crypto

// NewCrypto returns the Crypto group of h (rates.NewCrypto).
func NewCrypto(h *engine.Handle) Crypto { return rates.NewCrypto(h) }

// WithdrawalFeeRequest asks what a crypto withdrawal costs
// (rates.WithdrawalFeeRequest).
type WithdrawalFeeRequest = rates.WithdrawalFeeRequest

// WithdrawalFee is a crypto withdrawal's estimate (rates.WithdrawalFee).
type WithdrawalFee = rates.WithdrawalFee

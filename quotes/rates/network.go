package rates

import "slices"

// NetworkFee is the on-chain cost of one withdrawal on a crypto network, in
// the smallest unit of the asset the network charges it in (lamports of SOL,
// wei of ETH, satoshis of BTC, ...). The Service pays it: quotes to a wallet
// deduct no network fee, so a withdrawal estimate reports it for information
// and its totalFee is the quote's feesIncluded.
type NetworkFee struct {
	Amount int64
	Asset  string
}

// networks lists each crypto network's fee and the currencies it carries.
// The fees are fixed, typical figures, not live network prices.
var networks = map[string]struct {
	fee        NetworkFee
	currencies []string
}{
	"SOLANA":    {NetworkFee{5_000, "SOL"}, []string{"USDC", "USDT"}},
	"ETHEREUM":  {NetworkFee{630_000_000_000_000, "ETH"}, []string{"USDC", "USDT"}},
	"BASE":      {NetworkFee{1_000_000_000_000, "ETH"}, []string{"USDC"}},
	"ARBITRUM":  {NetworkFee{1_000_000_000_000, "ETH"}, []string{"USDC", "USDT"}},
	"POLYGON":   {NetworkFee{10_000_000_000_000_000, "POL"}, []string{"USDC", "USDT"}},
	"TRON":      {NetworkFee{1_000_000, "TRX"}, []string{"USDT"}},
	"SPARK":     {NetworkFee{0, "BTC"}, []string{"BTC", "USDB", "USDC"}},
	"LIGHTNING": {NetworkFee{1, "BTC"}, []string{"BTC"}},
	"BITCOIN":   {NetworkFee{2_000, "BTC"}, []string{"BTC"}},
}

// Network returns the fee of a withdrawal of currency on network; ok is
// false when the network is unknown or does not carry the currency.
func Network(network, currency string) (fee NetworkFee, ok bool) {
	n, found := networks[network]
	if !found || !slices.Contains(n.currencies, currency) {
		return NetworkFee{}, false
	}
	return n.fee, true
}

// Networks returns the known network names, sorted.
func Networks() []string {
	out := make([]string, 0, len(networks))
	for n := range networks {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

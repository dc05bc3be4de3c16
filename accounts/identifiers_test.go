package accounts_test

import (
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/paygrid/payments/accounts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flip changes the digit or letter at i to another of its kind.
func flip(s string, i int) string {
	b := []byte(s)
	switch {
	case b[i] >= '0' && b[i] <= '8':
		b[i]++
	case b[i] == '9':
		b[i] = '0'
	case b[i] == 'z' || b[i] == 'Z':
		b[i]--
	default:
		b[i]++
	}
	return string(b)
}

// sparkAddress builds a Spark address carrying identity key key.
func sparkAddress(t testing.TB, key []byte) string {
	data, err := bech32.ConvertBits(append([]byte{0x0a, 33}, key...), 8, 5, true)
	require.NoError(t, err)
	s, err := bech32.EncodeM("spark", data)
	require.NoError(t, err)
	return s
}

// invoice is the "donation" example invoice of BOLT #11.
func invoice(testing.TB) string { return specDonation }

func TestIdentifiers_PublishedVectors(t *testing.T) {
	good := map[string]func(string) error{
		"DE89370400440532013000":                       accounts.IBAN,
		"GB82 WEST 1234 5698 7654 32":                  accounts.IBAN,
		"FR1420041010050500013M02606":                  accounts.IBAN,
		"NO9386011117947":                              accounts.IBAN,
		"032180000118359719":                           accounts.CLABE,
		"002010077777777771":                           accounts.CLABE,
		"021000021":                                    accounts.ABA,
		"011000015":                                    accounts.ABA,
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed":   accounts.EVM,
		"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359":   accounts.EVM,
		"0x52908400098527886e0f7030069857d2e4169ee7":   accounts.EVM,
		"11111111111111111111111111111111":             accounts.Solana,
		"EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v": accounts.Solana,
		"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t":           accounts.Tron,
		"12-34-56":                                     accounts.SortCode,
		"HDFC0001234":                                  accounts.IFSC,
		"alice@getalby.com":                            accounts.LightningAddress,
		"lno1pgqpvggr53478rgx3s4uy":                    accounts.BOLT12,
	}
	for s, fn := range good {
		assert.NoError(t, fn(s), s)
	}
	bad := map[string]func(string) error{
		"DE89370400440532013001":                     accounts.IBAN,  // mod 97
		"DE8937040044053201300":                      accounts.IBAN,  // length for DE
		"XX89370400440532013000":                     accounts.IBAN,  // country
		"032180000118359718":                         accounts.CLABE, // check digit
		"03218000011835971":                          accounts.CLABE, // length
		"021000022":                                  accounts.ABA,   // checksum
		"02100002a":                                  accounts.ABA,   // digits
		"0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed": accounts.EVM,   // EIP-55 case
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe":  accounts.EVM,   // length
		"0OIl1111111111111111111111111111":           accounts.Solana,
		"1111111111111111111111111111111":            accounts.Solana, // 31 bytes
		"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u":         accounts.Tron,   // checksum
		"invalid_address":                            accounts.Spark,
		"1234567":                                    accounts.SortCode,
		"HDFC1001234":                                accounts.IFSC,
		"alice@localhost":                            accounts.LightningAddress,
		"lnbc1notaninvoice":                          accounts.BOLT11,
		"lno1InvalidOfferWithB":                      accounts.BOLT12,
	}
	for s, fn := range bad {
		assert.Error(t, fn(s), s)
	}
}

func TestSpark_IdentityKey(t *testing.T) {
	key := append([]byte{0x02}, make([]byte, 32)...)
	key[5] = 7
	addr := sparkAddress(t, key)
	require.NoError(t, accounts.Spark(addr))
	got, err := accounts.SparkIdentityKey(addr)
	require.NoError(t, err)
	assert.Equal(t, key, got)
	assert.ErrorIs(t, accounts.Spark(flip(addr, len(addr)-1)), accounts.ErrChecksum)
	assert.Error(t, accounts.Spark(strings.ToUpper(addr[:10])+addr[10:]), "mixed case")
}

func TestBOLT11(t *testing.T) {
	inv := invoice(t)
	require.NoError(t, accounts.BOLT11(inv))
	require.NoError(t, accounts.BOLT11("lightning:"+inv))
	assert.ErrorIs(t, accounts.BOLT11(flip(inv, len(inv)-2)), accounts.ErrChecksum)
	short, _ := bech32.Encode("lnbc", make([]byte, 10))
	assert.Error(t, accounts.BOLT11(short), "no room for a signature")
}

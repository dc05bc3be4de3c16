package accounts_test

import (
	"strings"
	"testing"

	"github.com/paygrid/payments/accounts"
)

// The fuzz targets check that no parser panics and that whatever a
// validator accepts still has the shape it promises.

func FuzzIBAN(f *testing.F) {
	for _, s := range []string{"DE89370400440532013000", "GB82WEST12345698765432", "XX00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if accounts.IBAN(s) == nil && len(s) < 15 {
			t.Fatalf("accepted a short IBAN %q", s)
		}
	})
}

func FuzzCLABEAndABA(f *testing.F) {
	for _, s := range []string{"032180000118359719", "021000021", "abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if accounts.CLABE(s) == nil && len(s) != 18 {
			t.Fatalf("accepted CLABE %q", s)
		}
		if accounts.ABA(s) == nil && len(s) != 9 {
			t.Fatalf("accepted ABA %q", s)
		}
	})
}

func FuzzCryptoAddresses(f *testing.F) {
	for _, s := range []string{"0x52908400098527886e0f7030069857d2e4169ee7", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
		"EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "spark1qqqq", "lnbc1", "lno1qq", "a@b.co"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if accounts.EVM(s) == nil && len(s) != 42 {
			t.Fatalf("accepted EVM %q", s)
		}
		_ = accounts.Solana(s)
		_ = accounts.Tron(s)
		_ = accounts.Spark(s)
		_, _ = accounts.SparkIdentityKey(s)
		_ = accounts.BOLT11(s)
		_ = accounts.BOLT12(s)
		_ = accounts.LightningAddress(s)
	})
}

func FuzzCheckInfo(f *testing.F) {
	f.Add("USD_ACCOUNT", "accountNumber", "123")
	f.Add("EUR_ACCOUNT", "iban", "DE89370400440532013000")
	f.Add("SPARK_WALLET", "address", "spark1")
	f.Fuzz(func(t *testing.T, typ, k, v string) {
		_, _ = accounts.CheckInfo(map[string]any{"accountType": typ, k: v}, "USD", nil)
	})
}

// FuzzParseBOLT11: the invoice decoder never panics, and what it accepts
// has a payment hash, a 33-byte payee and a non-negative amount.
func FuzzParseBOLT11(f *testing.F) {
	for _, s := range []string{specDonation, specCoffee, "lnbc1", "lntbs10p1qqqq", "lightning:lnbcrt1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		inv, err := accounts.ParseBOLT11(s)
		if err != nil {
			return
		}
		if len(inv.Payee) != 33 || inv.AmountMsat < 0 || inv.Expiry < 0 {
			t.Fatalf("accepted %q as %+v", s, inv)
		}
	})
}

// FuzzBankCodes: BIC, sort code and IFSC never panic, and what they accept
// has the length its scheme fixes.
func FuzzBankCodes(f *testing.F) {
	for _, s := range []string{"DEUTDEFF", "DEUTDEFF500", "12-34-56", "HDFC0001234", "DEUT1EFF", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if accounts.SWIFT(s, nil) == nil && len(s) != 8 && len(s) != 11 {
			t.Fatalf("accepted BIC %q", s)
		}
		if accounts.SortCode(s) == nil && len(strings.ReplaceAll(s, "-", "")) != 6 {
			t.Fatalf("accepted sort code %q", s)
		}
		if accounts.IFSC(s) == nil && len(s) != 11 {
			t.Fatalf("accepted IFSC %q", s)
		}
	})
}

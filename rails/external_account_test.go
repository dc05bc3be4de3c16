package rails_test

import (
	"encoding/json"
	"testing"

	"github.com/paygrid/payments/rails"
)

// accountInfoModel is what AccountType and Identifier gave when they
// decoded every candidate member as raw JSON and then as a string.
func accountInfoModel(info json.RawMessage) (typ, id string) {
	var top struct {
		AccountType json.RawMessage `json:"accountType"`
	}
	if json.Unmarshal(info, &top) == nil {
		_ = json.Unmarshal(top.AccountType, &typ)
	}
	var ids struct {
		IBAN             json.RawMessage `json:"iban"`
		CLABE            json.RawMessage `json:"clabeNumber"`
		AccountNumber    json.RawMessage `json:"accountNumber"`
		Address          json.RawMessage `json:"address"`
		PixKey           json.RawMessage `json:"pixKey"`
		PhoneNumber      json.RawMessage `json:"phoneNumber"`
		VPA              json.RawMessage `json:"vpa"`
		Invoice          json.RawMessage `json:"invoice"`
		Bolt12           json.RawMessage `json:"bolt12"`
		LightningAddress json.RawMessage `json:"lightningAddress"`
		SwiftCode        json.RawMessage `json:"swiftCode"`
	}
	if json.Unmarshal(info, &ids) != nil {
		return typ, ""
	}
	for _, raw := range [...]json.RawMessage{ids.IBAN, ids.CLABE, ids.AccountNumber, ids.Address, ids.PixKey,
		ids.PhoneNumber, ids.VPA, ids.Invoice, ids.Bolt12, ids.LightningAddress, ids.SwiftCode} {
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			return typ, s
		}
	}
	return typ, ""
}

// FuzzAccountInfo checks AccountType and Identifier against
// accountInfoModel.
func FuzzAccountInfo(f *testing.F) {
	for _, s := range []string{`{"accountType":"IBAN","iban":"DE89370400440532013000"}`, `{"accountType":5,"iban":7,"clabeNumber":"002"}`,
		`{"IBAN":"x","Iban":null}`, `[1]`, `null`, ``, `{"accountNumber":"1","accountNumber":2}`, `{"swiftCode":"A","address":{"a":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, info []byte) {
		a := &rails.ExternalAccount{AccountInfo: info}
		typ, id := accountInfoModel(info)
		if got := a.AccountType(); got != typ {
			t.Fatalf("AccountType(%s) = %q, want %q", info, got, typ)
		}
		if got := a.Identifier(); got != id {
			t.Fatalf("Identifier(%s) = %q, want %q", info, got, id)
		}
	})
}

// BenchmarkIdentifier reads a bank account's identifier, as the sandbox
// rail does for every payout.
func BenchmarkIdentifier(b *testing.B) {
	a := &rails.ExternalAccount{AccountInfo: []byte(`{"accountType":"EUR_ACCOUNT","iban":"DE89370400440532013000","beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Perf Payee","countryOfResidence":"DE"},"paymentRails":["SEPA","SEPA_INSTANT"]}`)}
	b.ReportAllocs()
	for b.Loop() {
		if a.Identifier() == "" {
			b.Fatal("no identifier")
		}
	}
}

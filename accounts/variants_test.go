package accounts_test

import (
	"testing"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/validate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goodMembers are valid values for every accountInfo member.
func goodMembers(t testing.TB, typ string) map[string]any {
	addr := map[string]string{"EVM": "0x52908400098527886e0f7030069857d2e4169ee7", "SOLANA": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
		"TRON": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "SPARK": sparkAddress(t, append([]byte{3}, make([]byte, 32)...))}[accounts.Chain(typ)]
	iban := map[string]string{"AED_ACCOUNT": "AE070331234567890123456", "DKK_ACCOUNT": "DK5000400440116243", "ILS_ACCOUNT": "IL620108000000099999999",
		"TRY_ACCOUNT": "TR330006100519786457841326", "PKR_ACCOUNT": "PK36SCBL0000001123456702", "EGP_ACCOUNT": "EG380019000500000000263180002"}[typ]
	if iban == "" {
		iban = "DE89370400440532013000"
	}
	phone := map[string]string{"RWF_ACCOUNT": "+250712345678", "TZS_ACCOUNT": "+255712345678", "ZMW_ACCOUNT": "+260712345678",
		"IDR_ACCOUNT": "+6281234567890"}[typ]
	if phone == "" {
		phone = "+254712345678"
	}
	number, region := "1234567890", "CM"
	if typ == "GBP_ACCOUNT" {
		number = "12345678"
	}
	if typ == "XOF_ACCOUNT" {
		region = "SN"
	}
	return map[string]any{"iban": iban, "swiftCode": "DEUTDEFF", "routingNumber": "021000021", "intermediaryRoutingNumber": "011000015",
		"clabeNumber": "032180000118359719", "sortCode": "123456", "ifsc": "HDFC0001234", "accountNumber": number,
		"phoneNumber": phone, "provider": "MPESA", "bankName": "Bank", "branchCode": "00012", "bankCode": "004",
		"bankAccountType": "CHECKING", "pixKey": "testuser.001@pix.com.br", "pixKeyType": "EMAIL", "taxId": "12345678901", "region": region,
		"vpa": "user@upi", "rail": "UPI", "country": "DE", "intermediaryBankName": "IB", "fiToFiInformation": "memo",
		"address": addr, "vaspName": "Coinbase", "invoice": invoice(t), "bolt12": "lno1pgqpvggr53478rgx3s4uy", "lightningAddress": "a@b.co"}
}

func TestVariants_EveryAccountType(t *testing.T) {
	require.Len(t, accounts.Variants, 50, "the API has 50 account types")
	for _, typ := range accounts.AccountTypes() {
		v := accounts.Variants[typ]
		t.Run(typ, func(t *testing.T) {
			members := goodMembers(t, typ)
			info := map[string]any{"accountType": typ}
			for _, f := range append(append([]string{}, v.Required...), v.Optional...) {
				info[f] = members[f]
			}
			if v.Beneficiary != "" {
				info["beneficiary"] = fullBeneficiary()
			}
			got, issues := accounts.CheckInfo(info, v.Currency, validate.IsCountry)
			assert.Equal(t, typ, got)
			assert.Empty(t, issues, "a valid %s", typ)

			for _, f := range v.Required {
				bad := clone(info)
				delete(bad, f)
				_, issues := accounts.CheckInfo(bad, v.Currency, validate.IsCountry)
				assert.Contains(t, fields(issues), "accountInfo."+f, "%s without %s", typ, f)
			}
			if v.Beneficiary == "required" {
				bad := clone(info)
				delete(bad, "beneficiary")
				_, issues := accounts.CheckInfo(bad, v.Currency, validate.IsCountry)
				assert.Equal(t, []string{"accountInfo.beneficiary"}, fields(issues))
			}
		})
	}
}

func TestVariants_IdentifierIssues(t *testing.T) {
	_, issues := accounts.CheckInfo(map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "123", "routingNumber": "021000022",
		"beneficiary": map[string]any{"beneficiaryType": "BUSINESS", "legalName": "Acme"}}, "USD", validate.IsCountry)
	require.Len(t, issues, 1)
	assert.Equal(t, "accountInfo.routingNumber", issues[0].Field)
	assert.True(t, issues[0].Identifier)

	_, issues = accounts.CheckInfo(map[string]any{"accountType": "EUR_ACCOUNT", "iban": 7, "extra": "x",
		"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "J"}}, "USD", validate.IsCountry)
	assert.ElementsMatch(t, []string{"accountInfo.iban", "accountInfo.extra", "currency", "accountInfo.beneficiary.countryOfResidence"}, fields(issues))

	_, issues = accounts.CheckInfo(map[string]any{"accountType": "LIGHTNING"}, "BTC", validate.IsCountry)
	assert.Equal(t, []string{"accountInfo.invoice"}, fields(issues))
	_, issues = accounts.CheckInfo(map[string]any{"accountType": "CARRIER_PIGEON"}, "USD", validate.IsCountry)
	assert.Equal(t, []string{"accountInfo.accountType"}, fields(issues))
}

// fullBeneficiary is an individual beneficiary with every member any
// accountType may require.
func fullBeneficiary() map[string]any {
	return map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jane Doe", "countryOfResidence": "DE",
		"phoneNumber": "+4915112345678", "address": map[string]any{"line1": "Main St 1", "postalCode": "10115", "country": "DE"}}
}

func TestVariants_BeneficiaryPerType(t *testing.T) {
	minimal := map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jane Doe"}
	for typ, want := range map[string][]string{
		"AED_ACCOUNT":     {"accountInfo.beneficiary.address"},
		"EUR_ACCOUNT":     {"accountInfo.beneficiary.countryOfResidence"},
		"GTQ_ACCOUNT":     {"accountInfo.beneficiary.countryOfResidence", "accountInfo.beneficiary.phoneNumber"},
		"JMD_ACCOUNT":     {"accountInfo.beneficiary.address", "accountInfo.beneficiary.phoneNumber"},
		"BASE_WALLET":     {"accountInfo.beneficiary.countryOfResidence"},
		"USD_ACCOUNT":     nil,
		"ARBITRUM_WALLET": {"accountInfo.beneficiary.countryOfResidence"},
	} {
		v := accounts.Variants[typ]
		info := map[string]any{"accountType": typ, "beneficiary": minimal}
		members := goodMembers(t, typ)
		for _, f := range v.Required {
			info[f] = members[f]
		}
		_, issues := accounts.CheckInfo(info, v.Currency, validate.IsCountry)
		assert.ElementsMatch(t, want, fields(issues), typ)

		// A business beneficiary needs only its legal name.
		info["beneficiary"] = map[string]any{"beneficiaryType": "BUSINESS", "legalName": "Acme"}
		_, issues = accounts.CheckInfo(info, v.Currency, validate.IsCountry)
		assert.Empty(t, issues, typ)
	}

	t.Run("ErrAddress", func(t *testing.T) {
		b := fullBeneficiary()
		b["address"] = map[string]any{"line1": " ", "postalCode": 10115, "country": "XX", "city": "Berlin"}
		b["phoneNumber"] = "015112345678"
		v := accounts.Variants["AED_ACCOUNT"]
		_, issues := accounts.CheckInfo(map[string]any{"accountType": "AED_ACCOUNT", "iban": "AE070331234567890123456", "beneficiary": b}, v.Currency, validate.IsCountry)
		assert.ElementsMatch(t, []string{"accountInfo.beneficiary.address.line1", "accountInfo.beneficiary.address.postalCode",
			"accountInfo.beneficiary.address.country", "accountInfo.beneficiary.phoneNumber"}, fields(issues))
		b["address"] = "Main St 1"
		_, issues = accounts.CheckInfo(map[string]any{"accountType": "AED_ACCOUNT", "iban": "AE070331234567890123456", "beneficiary": b}, v.Currency, validate.IsCountry)
		assert.ElementsMatch(t, []string{"accountInfo.beneficiary.address", "accountInfo.beneficiary.phoneNumber"}, fields(issues))
	})
}

func clone(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func fields(issues []accounts.Issue) []string {
	var out []string
	for _, i := range issues {
		out = append(out, i.Field)
	}
	return out
}

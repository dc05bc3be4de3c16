package accounts_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAccountDetails_CreateExternal creates an external account from each
// typed accountInfo through the engine (the same checks as raw JSON, check
// digits included) and reads the typed value back from the stored
// account.
func TestAccountDetails_CreateExternal(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	c, err := e.Eng.Customers.Create(ctx, enginetest.FullIndividual("Detail Holder"))
	require.NoError(t, err)
	jane := &payments.Beneficiary{Type: payments.BeneficiaryIndividual, FullName: "Jane Doe", CountryOfResidence: "DE"}
	acme := &payments.Beneficiary{Type: payments.BeneficiaryBusiness, LegalName: "Acme GmbH"}
	for _, tc := range []struct {
		name, currency, accountType string
		details                     payments.AccountDetails
	}{
		{"US", "USD", "USD_ACCOUNT", payments.USBankAccount{AccountNumber: "1234567890", RoutingNumber: "021000021", BankAccountType: "SAVINGS", Beneficiary: jane}},
		{"IBAN", "EUR", "EUR_ACCOUNT", payments.IBANAccount{IBAN: "DE89370400440532013000", SwiftCode: "DEUTDEFF", Beneficiary: jane}},
		{"IBAN DKK", "DKK", "DKK_ACCOUNT", payments.IBANAccount{Currency: "DKK", IBAN: "DK5000400440116243", Beneficiary: acme}},
		{"UK", "GBP", "GBP_ACCOUNT", payments.UKBankAccount{SortCode: "123456", AccountNumber: "12345678", Beneficiary: jane}},
		{"CLABE", "MXN", "MXN_ACCOUNT", payments.CLABEAccount{CLABE: "032180000118359719", Beneficiary: jane}},
		{"PIX", "BRL", "BRL_ACCOUNT", payments.PIXAccount{PixKey: "jane@example.com", PixKeyType: payments.PixKeyEmail, TaxID: "12345678901", Beneficiary: jane}},
		{"UPI", "INR", "INR_ACCOUNT", payments.UPIAccount{VPA: "jane@upi", Beneficiary: jane}},
		{"Solana USDC", "USDC", "SOLANA_WALLET", payments.CryptoWallet{Type: payments.SolanaWallet, Address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", VASPName: "Coinbase"}},
		{"Ethereum USDC", "USDC", "ETHEREUM_WALLET", payments.CryptoWallet{Type: payments.EthereumWallet, Address: "0x52908400098527886E0F7030069857D2E4169EE7", Beneficiary: jane}},
		{"Lightning", "BTC", "LIGHTNING", payments.LightningAccount{LightningAddress: "jane@getalby.com"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := e.Eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID, Currency: tc.currency,
				OwnershipType: "THIRD_PARTY", AccountInfo: tc.details.AccountInfo()}, payments.CustomerScope)
			require.NoError(t, err)
			var head struct {
				AccountType string `json:"accountType"`
			}
			require.NoError(t, json.Unmarshal(a.AccountInfo, &head))
			assert.Equal(t, tc.accountType, head.AccountType)

			// The stored accountInfo decodes back into the typed value;
			// the members accountType stands for (IBANAccount.Currency,
			// CryptoWallet.Type) are not decoded.
			back := reflect.New(reflect.TypeOf(tc.details))
			require.NoError(t, json.Unmarshal(a.AccountInfo, back.Interface()))
			want := reflect.ValueOf(tc.details)
			for i := range want.NumField() {
				if want.Type().Field(i).Tag.Get("json") == "-" {
					back.Elem().Field(i).Set(want.Field(i))
				}
			}
			assert.Equal(t, tc.details, back.Elem().Interface())
		})
	}

	t.Run("the checks still apply", func(t *testing.T) {
		_, err := e.Eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID, Currency: "EUR",
			AccountInfo: payments.IBANAccount{IBAN: "DE89370400440532013001", Beneficiary: jane}.AccountInfo()}, payments.CustomerScope)
		enginetest.RequireCode(t, err, payments.CodeInvalidBankAccount, "accountInfo.iban")
		_, err = e.Eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID, Currency: "USD",
			AccountInfo: payments.USBankAccount{AccountNumber: "1234567890", RoutingNumber: "021000021"}.AccountInfo()}, payments.CustomerScope)
		enginetest.RequireCode(t, err, payments.CodeInvalidInput, "accountInfo.beneficiary")
	})
}

// TestAccountDetails_AccountInfo pins the JSON each typed value writes: the
// reference's member names, accountType first, empty optionals left out.
func TestAccountDetails_AccountInfo(t *testing.T) {
	assert.Equal(t, `{"accountType":"USD_ACCOUNT","accountNumber":"1","routingNumber":"021000021","beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"J"}}`,
		string(payments.USBankAccount{AccountNumber: "1", RoutingNumber: "021000021",
			Beneficiary: &payments.Beneficiary{Type: payments.BeneficiaryIndividual, FullName: "J"}}.AccountInfo()))
	assert.Equal(t, `{"accountType":"EUR_ACCOUNT","iban":"X"}`, string(payments.IBANAccount{IBAN: "X"}.AccountInfo()))
	assert.Equal(t, `{"accountType":"TRY_ACCOUNT","iban":"X"}`, string(payments.IBANAccount{Currency: "TRY", IBAN: "X"}.AccountInfo()))
	assert.Equal(t, `{"accountType":"GBP_ACCOUNT","sortCode":"1","accountNumber":"2"}`, string(payments.UKBankAccount{SortCode: "1", AccountNumber: "2"}.AccountInfo()))
	assert.Equal(t, `{"accountType":"MXN_ACCOUNT","clabeNumber":"1"}`, string(payments.CLABEAccount{CLABE: "1"}.AccountInfo()))
	assert.Equal(t, `{"accountType":"BRL_ACCOUNT","pixKey":"k","pixKeyType":"CPF","taxId":"1"}`,
		string(payments.PIXAccount{PixKey: "k", PixKeyType: payments.PixKeyCPF, TaxID: "1"}.AccountInfo()))
	assert.Equal(t, `{"accountType":"INR_ACCOUNT","vpa":"a@b"}`, string(payments.UPIAccount{VPA: "a@b"}.AccountInfo()))
	assert.Equal(t, `{"accountType":"TRON_WALLET","address":"T"}`, string(payments.CryptoWallet{Type: payments.TronWallet, Address: "T"}.AccountInfo()))
	assert.Equal(t, `{"accountType":"LIGHTNING","invoice":"lnbc1"}`, string(payments.LightningAccount{Invoice: "lnbc1"}.AccountInfo()))
	assert.Equal(t, `{"accountType":"LIGHTNING"}`, string(payments.LightningAccount{}.AccountInfo()))
}
